/**
 * The sample application: supervised demo server, its tools over HTTP, health and the
 * {@code mcp} endpoint.
 */
@NullMarked
package io.github.mcpsupervisor.sample;

import org.jspecify.annotations.NullMarked;
