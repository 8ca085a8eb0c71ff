/**
 * The connectors of MCP servers made from their definitions, for an application that
 * builds its supervisors itself, without the auto-configuration.
 */
@NullMarked
package io.github.mcpsupervisor.connector;

import org.jspecify.annotations.NullMarked;
