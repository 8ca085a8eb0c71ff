package io.github.mcpsupervisor.transport.internal.http.authorization;

import org.jspecify.annotations.Nullable;

/**
 * Checks the {@code iss} parameter of an authorization response (RFC 9207 section 2.4)
 * before its code is sent anywhere, as the MCP authorization specification (revision
 * 2026-07-28) requires: compared with the issuer of the authorization server's validated
 * metadata by simple string comparison (no case folding, port, slash or percent-encoding
 * normalization), required when that server says it sends one.
 */
final class AuthorizationResponseIssuer {

	private AuthorizationResponseIssuer() {
	}

	/**
	 * Returns why the response must not be used, if it must not.
	 * @param expected the issuer of the metadata the authorization request was built from
	 * @param advertised whether that metadata says the server sends {@code iss}
	 * @param received the response's {@code iss}, or {@code null} when it has none
	 * @return {@code null} when the response may be used, otherwise why not; the error
	 * parameters of a refused response are not to be acted on or shown either
	 */
	static @Nullable String refusal(String expected, boolean advertised, @Nullable String received) {
		if (received == null) {
			return advertised ? "the authorization server sends iss in its responses, and this one has none" : null;
		}
		return expected.equals(received) ? null
				: "the response's iss is not the authorization server's issuer '" + expected + "'";
	}

}
