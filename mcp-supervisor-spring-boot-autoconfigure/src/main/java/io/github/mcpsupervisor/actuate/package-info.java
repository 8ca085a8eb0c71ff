/**
 * Actuator support: the {@code mcp} health component (one member per server) and the
 * {@code mcp} endpoint.
 */
@NullMarked
package io.github.mcpsupervisor.actuate;

import org.jspecify.annotations.NullMarked;
