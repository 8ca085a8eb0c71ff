/**
 * What every generation shares, whatever revision it speaks and however it reaches its
 * server: its connection and its life, the contracts of its carrier (how it reaches the
 * server) and of its revision's client, the client of MCP revision 2025-11-25 with the
 * transport decorators that bound its answers, sampling and list changes, the scope that
 * cancels a generation's requests, and tool listing. The carriers live in the
 * {@code stdio} and {@code http} sub-packages, and the client of revision 2026-07-28 in
 * {@code modern}; this package knows none of them, and the supervisor sees only
 * {@code McpConnection}.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal;

import org.jspecify.annotations.NullMarked;
