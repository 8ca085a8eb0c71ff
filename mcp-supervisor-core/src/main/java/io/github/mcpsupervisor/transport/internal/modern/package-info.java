/**
 * The client of MCP revision 2026-07-28 (stateless: no initialize, no session, no ping)
 * over the SDK's modern client, {@code server/discover} and its reading, the translation
 * between the modern schema and the one the supervisor and Spring AI use, and the
 * negotiation that chooses a server's revision when it is configured as {@code auto}.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal.modern;

import org.jspecify.annotations.NullMarked;
