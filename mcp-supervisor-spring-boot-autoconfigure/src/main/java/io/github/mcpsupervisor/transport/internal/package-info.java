/**
 * What every kind of transport shares: the connection of a generation over its SDK client
 * (MCP revision 2025-11-25), the transport decorators that bound answers, sampling and
 * list changes, the scope that cancels a generation's requests, and tool listing. The
 * kinds live in the {@code stdio} and {@code http} sub-packages; this package knows
 * neither of them, so a second protocol revision can add its own connection package
 * beside this one without touching the supervisor, which sees only {@code McpConnection}.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal;

import org.jspecify.annotations.NullMarked;
