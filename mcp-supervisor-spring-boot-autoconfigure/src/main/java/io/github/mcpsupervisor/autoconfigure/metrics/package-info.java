/**
 * Auto-configuration of the supervisors' Micrometer metrics.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
