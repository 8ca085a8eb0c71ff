/**
 * Application events of the supervised MCP servers.
 */
@NullMarked
package io.github.mcpsupervisor.event;

import org.jspecify.annotations.NullMarked;
