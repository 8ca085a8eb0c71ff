/**
 * The Micrometer metrics of the supervised MCP servers and their tool calls, which the
 * auto-configuration registers when the application has a {@code MeterRegistry}.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.metrics.internal;

import org.jspecify.annotations.NullMarked;
