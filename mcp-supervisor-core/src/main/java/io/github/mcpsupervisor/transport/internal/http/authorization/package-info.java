/**
 * What the MCP authorization specification has a client read from a protected Streamable
 * HTTP server and find from there: the challenges of its {@code 401} and {@code 403}
 * answers, where its protected resource metadata (RFC 9728) and its authorization
 * server's metadata (RFC 8414, OpenID Connect Discovery) are looked up, and the canonical
 * form of its URL as a resource indicator (RFC 8707).
 * <p>
 * Not API: may change in any release.
 */
@NullMarked
package io.github.mcpsupervisor.transport.internal.http.authorization;

import org.jspecify.annotations.NullMarked;
