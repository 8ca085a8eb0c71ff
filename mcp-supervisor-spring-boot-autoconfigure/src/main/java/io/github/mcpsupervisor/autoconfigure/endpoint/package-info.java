/**
 * Auto-configuration of the {@code mcp} actuator endpoint, its properties, and the
 * configuration of each server that it shows.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
