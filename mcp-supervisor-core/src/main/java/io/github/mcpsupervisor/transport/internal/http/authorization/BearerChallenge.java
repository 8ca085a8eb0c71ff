package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The {@code Bearer} challenge of a {@code WWW-Authenticate} header (RFC 9110 section
 * 11.6.1, RFC 6750 section 3), with the parameters the MCP authorization specification
 * reads: {@code error}, {@code error_description}, {@code scope} and
 * {@code resource_metadata} (RFC 9728). A header may hold several challenges, of other
 * schemes too; parameter names and the scheme are case-insensitive, values are tokens or
 * quoted strings. The header is the server's text: one longer than {@link #MAX_LENGTH} is
 * not read.
 *
 * @param error the error code, or {@code null}
 * @param errorDescription the error's description, or {@code null}
 * @param scopes the scopes the challenge names, in order, empty when it names none
 * @param resourceMetadata the URL of the protected resource metadata, as written, or
 * {@code null}
 */
record BearerChallenge(@Nullable String error, @Nullable String errorDescription, List<String> scopes,
		@Nullable String resourceMetadata) {

	/** The longest header read, in characters. */
	static final int MAX_LENGTH = 8192;

	/** The error of a token whose scopes do not cover the request (RFC 6750). */
	static final String INSUFFICIENT_SCOPE = "insufficient_scope";

	private static final String SCHEME = "bearer";

	/**
	 * Reads the first {@code Bearer} challenge of the given header values.
	 * @param headers the values of the {@code WWW-Authenticate} headers of one answer
	 * @return the challenge, or empty when none is there or readable
	 */
	static Optional<BearerChallenge> of(List<String> headers) {
		for (String header : headers) {
			if (header == null || header.length() > MAX_LENGTH) {
				continue;
			}
			for (Challenge challenge : new Parser(header).challenges()) {
				if (SCHEME.equals(challenge.scheme())) {
					Map<String, String> params = challenge.params();
					String scope = params.get("scope");
					List<String> scopes = (scope != null)
							? Arrays.stream(scope.split(" ")).filter((each) -> !each.isEmpty()).toList() : List.of();
					return Optional.of(new BearerChallenge(params.get("error"), params.get("error_description"), scopes,
							params.get("resource_metadata")));
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * Returns whether the challenge says the token lacks scopes.
	 * @return whether the error is {@code insufficient_scope}
	 */
	boolean isInsufficientScope() {
		return INSUFFICIENT_SCOPE.equals(this.error);
	}

	private record Challenge(String scheme, Map<String, String> params) {

	}

	// A reader of the challenge grammar: challenges separated by commas, each a scheme
	// followed by a token68 or by comma-separated name=value parameters.
	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		List<Challenge> challenges() {
			List<Challenge> challenges = new ArrayList<>();
			while (true) {
				skip(" \t,");
				String scheme = token();
				if (scheme == null) {
					return challenges;
				}
				Map<String, String> params = new LinkedHashMap<>();
				skip(" \t");
				if (!token68()) {
					params(params);
				}
				challenges.add(new Challenge(scheme.toLowerCase(Locale.ROOT), params));
				if (this.position < this.text.length() && this.text.charAt(this.position) != ',') {
					return challenges; // not the grammar: stop reading
				}
			}
		}

		// Parameters up to the next challenge (a token not followed by '=') or the end;
		// the position is left on the comma before the next challenge.
		private void params(Map<String, String> params) {
			boolean first = true;
			while (true) {
				int start = this.position;
				if (!first && !at(',')) {
					return;
				}
				// empty list elements are allowed, even before the first parameter
				skip(" \t,");
				String name = token();
				skip(" \t");
				if (name == null || !at('=')) {
					this.position = start;
					return;
				}
				this.position++;
				skip(" \t");
				String value = at('"') ? quoted() : unquoted();
				if (value == null) {
					this.position = start;
					return;
				}
				params.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
				skip(" \t");
				first = false;
			}
		}

		// A token68 right after the scheme, consumed if it is one: it ends the challenge.
		private boolean token68() {
			int start = this.position;
			while (this.position < this.text.length() && isToken68(this.text.charAt(this.position))) {
				this.position++;
			}
			if (this.position == start) {
				return false;
			}
			while (at('=')) {
				this.position++;
			}
			skip(" \t");
			if (this.position >= this.text.length() || at(',')) {
				return true;
			}
			this.position = start; // name=value
			return false;
		}

		// A value that should be a token, read up to the next comma or space: servers
		// write
		// URLs and scopes such as mcp:write unquoted.
		private @Nullable String unquoted() {
			int start = this.position;
			while (this.position < this.text.length() && ", \t".indexOf(this.text.charAt(this.position)) < 0) {
				this.position++;
			}
			return (this.position > start) ? this.text.substring(start, this.position) : null;
		}

		private @Nullable String token() {
			int start = this.position;
			while (this.position < this.text.length() && isTokenChar(this.text.charAt(this.position))) {
				this.position++;
			}
			return (this.position > start) ? this.text.substring(start, this.position) : null;
		}

		private @Nullable String quoted() {
			StringBuilder value = new StringBuilder();
			this.position++;
			while (this.position < this.text.length()) {
				char c = this.text.charAt(this.position++);
				if (c == '"') {
					return value.toString();
				}
				if (c == '\\' && this.position < this.text.length()) {
					c = this.text.charAt(this.position++);
				}
				value.append(c);
			}
			return null; // unterminated
		}

		private boolean at(char c) {
			return this.position < this.text.length() && this.text.charAt(this.position) == c;
		}

		private void skip(String chars) {
			while (this.position < this.text.length() && chars.indexOf(this.text.charAt(this.position)) >= 0) {
				this.position++;
			}
		}

		private static boolean isTokenChar(char c) {
			return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
		}

		private static boolean isToken68(char c) {
			return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "-._~+/".indexOf(c) >= 0;
		}

	}

}
