/**
 * Actuator support: the {@code mcp} health component and the {@code mcp} endpoint.
 */
@NullMarked
package io.github.mcpsupervisor.actuate;

import org.jspecify.annotations.NullMarked;
