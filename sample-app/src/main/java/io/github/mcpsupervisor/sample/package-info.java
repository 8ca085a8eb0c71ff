/**
 * The sample application: supervised demo server, its tools, resources and prompts over
 * HTTP, health and the {@code mcp} endpoint.
 */
@NullMarked
package io.github.mcpsupervisor.sample;

import org.jspecify.annotations.NullMarked;
