package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;

/**
 * A request to another origin than its server's was refused: its headers and credentials
 * are for that server only.
 */
final class ForeignOriginException extends IOException {

	private static final long serialVersionUID = 1L;

	ForeignOriginException(URI refused, URI origin) {
		super("refused to send a request to " + origin(refused) + ", which is not the origin of the server's URL ("
				+ origin(origin) + ")");
	}

	// The scheme, host and port only: the rest of a URL may carry secrets.
	private static String origin(URI uri) {
		return uri.getScheme() + "://" + uri.getHost() + ((uri.getPort() >= 0) ? ":" + uri.getPort() : "");
	}

}
