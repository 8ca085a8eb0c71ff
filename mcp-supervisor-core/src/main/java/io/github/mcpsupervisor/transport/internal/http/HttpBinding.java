package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;

import io.github.mcpsupervisor.transport.internal.RevisionClient;
import org.jspecify.annotations.Nullable;

/**
 * How the client of one revision speaks over a generation's HTTP client: the revision's
 * SDK transport, and the reading of that transport's failures.
 */
interface HttpBinding {

	/**
	 * Returns the client of the generation.
	 * @return the client, connected by {@link #connect(GenerationHttpClient)}
	 */
	RevisionClient client();

	/**
	 * Returns the HTTP client that the generation's own client sends through.
	 * @param shared the HTTP client the servers share
	 * @return the client, by default the shared one
	 */
	default HttpClient httpClient(HttpClient shared) {
		return shared;
	}

	/**
	 * The body of a response to a JSON-RPC request broke off while it was read.
	 * @param ex the failure
	 */
	default void responseBroke(Throwable ex) {
	}

	/**
	 * Builds the revision's transport over the generation's HTTP client, and the client
	 * over it.
	 * @param httpClient the generation's HTTP client
	 */
	void connect(GenerationHttpClient httpClient);

	/**
	 * Returns the HTTP status that a failure reports.
	 * @param ex the failure
	 * @return the status, or {@code null} when the failure reports none
	 */
	@Nullable Integer status(Throwable ex);

	/**
	 * Reads what a failure that reports no status tells of the way to the server.
	 * @param ex the failure
	 * @return what it tells
	 */
	Failure failure(Throwable ex);

	/**
	 * What a failure tells of the way to the server.
	 */
	enum Failure {

		/** Nothing: the failure is the request's own. */
		NONE,

		/** An answer that is not valid JSON: it failed its own request only. */
		MALFORMED_ANSWER,

		/** The server forgot the session. */
		SESSION_LOST,

		/** A refused or reset connection, a response that broke off. */
		BROKEN

	}

}
