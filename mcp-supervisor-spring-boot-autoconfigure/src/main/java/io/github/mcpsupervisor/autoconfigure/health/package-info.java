/**
 * Auto-configuration of the {@code mcp} health component.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
