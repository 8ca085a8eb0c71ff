/**
 * Streamable HTTP servers: the HTTP client that all of them share, the client of each
 * generation (origin checks, session loss, cancellation of its requests), the transport
 * of each revision over it and the resumption of interrupted event streams.
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal.http;

import org.jspecify.annotations.NullMarked;
