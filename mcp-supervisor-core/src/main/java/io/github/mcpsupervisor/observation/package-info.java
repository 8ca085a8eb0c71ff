/**
 * Micrometer observations of the requests the supervisors send to their servers.
 */
@NullMarked
package io.github.mcpsupervisor.observation;

import org.jspecify.annotations.NullMarked;
