package io.github.mcpsupervisor.transport.internal.http;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

/**
 * The JDK HTTP clients of the Streamable HTTP servers: one {@link SharedHttpClient} per
 * distinct {@link HttpClientSettings}, created with the first server that has them (an
 * application without streamable-http servers has no HTTP threads), and one executor of
 * the callbacks for all of them. The requests of a server's authorization go through its
 * client too. Each {@link #client} is a use of the client until its
 * {@link SharedHttpClient#release() release}: a client whose last use is released is
 * closed and forgotten, so that servers replaced or removed while the application runs
 * leave no client behind. {@link #close() Close} it once every server has stopped.
 *
 * @since 0.1.0
 */
public final class SharedHttpClients implements AutoCloseable {

	private final HttpTls.Resolver tls;

	private final Map<HttpClientSettings, SharedHttpClient> clients = new LinkedHashMap<>();

	// the uses of each client not released yet
	private final Map<SharedHttpClient, Integer> uses = new HashMap<>();

	private @Nullable ThreadPoolExecutor executor;

	private @Nullable ThreadPoolExecutor senders;

	private boolean closed;

	/**
	 * Creates the clients.
	 * @param tls finds the TLS configurations that servers' settings name (Spring Boot's
	 * SSL bundles in an application), {@link HttpTls.Resolver#NONE} when there are none
	 */
	public SharedHttpClients(HttpTls.Resolver tls) {
		this.tls = tls;
	}

	/**
	 * Returns the client of a server: the one of its settings, created if none has them
	 * yet. Each call is a use of it, until the client's
	 * {@link SharedHttpClient#release()}.
	 * @param server the server's name, as a refusal names it
	 * @param settings the server's settings
	 * @return the client
	 * @throws IllegalStateException if the settings name a TLS configuration (an SSL
	 * bundle) that is not defined, or once closed
	 */
	public synchronized SharedHttpClient client(String server, HttpClientSettings settings) {
		if (this.closed) {
			throw new IllegalStateException("The HTTP clients of the MCP servers are closed");
		}
		SharedHttpClient client = this.clients.get(settings);
		if (client == null) {
			HttpTls bundle = (settings.sslBundle() != null) ? this.tls.resolve(server, settings.sslBundle()) : null;
			if (this.executor == null) {
				this.executor = SharedHttpClient.callbackExecutor();
				this.senders = OwnThreadsHttpClient.senders();
			}
			client = new SharedHttpClient(settings, bundle, this.executor, this.senders, this::release);
			this.clients.put(settings, client);
		}
		this.uses.merge(client, 1, Integer::sum);
		return client;
	}

	private synchronized void release(SharedHttpClient client) {
		Integer left = this.uses.computeIfPresent(client, (key, count) -> (count > 1) ? count - 1 : null);
		if (left == null && this.clients.values().remove(client)) {
			client.close();
		}
	}

	/**
	 * Returns how many clients there are: one per distinct settings in use.
	 * @return the number of clients
	 */
	public synchronized int size() {
		return this.clients.size();
	}

	/**
	 * Releases every client and the executor of their callbacks.
	 */
	@Override
	public synchronized void close() {
		this.closed = true;
		this.clients.values().forEach(SharedHttpClient::close);
		this.clients.clear();
		this.uses.clear();
		if (this.executor != null) {
			this.executor.shutdown();
			this.executor = null;
		}
		if (this.senders != null) {
			this.senders.shutdownNow();
			this.senders = null;
		}
	}

}
