/**
 * The bridge between supervised MCP servers and Spring AI tool calling.
 */
@NullMarked
package io.github.mcpsupervisor.tool;

import org.jspecify.annotations.NullMarked;
