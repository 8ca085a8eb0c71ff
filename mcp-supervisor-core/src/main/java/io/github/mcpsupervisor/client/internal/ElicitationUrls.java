package io.github.mcpsupervisor.client.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import io.github.mcpsupervisor.internal.ServerText;
import org.jspecify.annotations.Nullable;

/**
 * Checks the URL of a URL-mode elicitation before the application's handler sees it: the
 * handler shows it to a person, who opens it, so only an absolute {@code http} or
 * {@code https} URL is passed on ({@code javascript:}, {@code data:}, {@code file:} and
 * the like never are).
 *
 * @since 0.1.0
 */
public final class ElicitationUrls {

	/** The JSON-RPC error code of a refused URL: invalid params. */
	public static final int INVALID_URL = -32602;

	private ElicitationUrls() {
	}

	/**
	 * Tells why the URL of a server's URL elicitation is refused.
	 * @param server the server's name
	 * @param url the URL the server sent, or {@code null} when it sent none
	 * @return {@code null} when the URL may be shown, otherwise the refusal
	 */
	public static @Nullable String refusal(String server, @Nullable Object url) {
		if (url instanceof String text) {
			try {
				URI uri = new URI(text);
				String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : null;
				if (("http".equals(scheme) || "https".equals(scheme)) && uri.getHost() != null) {
					return null;
				}
			}
			catch (URISyntaxException ex) {
				// refused below
			}
		}
		// the URL is the server's text: bounded, never a whole script
		return "URL elicitation refused: MCP server '" + server + "' asked the user to open '"
				+ ServerText.bounded(String.valueOf(url), 64) + "', which is not an http or https URL";
	}

}
