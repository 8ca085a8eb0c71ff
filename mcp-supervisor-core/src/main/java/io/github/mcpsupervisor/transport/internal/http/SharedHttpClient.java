package io.github.mcpsupervisor.transport.internal.http;

import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A JDK {@link HttpClient} that Streamable HTTP servers with equal
 * {@link HttpClientSettings} share, with the executor of its callbacks: one selector
 * thread for all of them, and at most {@value #CALLBACK_THREADS} callback threads that
 * come and go with the load, none of them held by a server; callbacks beyond them wait
 * their turn. The callbacks read responses and hand messages to the clients, which never
 * block there. Each server still sends its own headers and customizations with every
 * request. Redirects are not followed: a server's requests, with their credentials, go to
 * its own URL only. {@link #close() Close} it once every server using it has stopped.
 *
 * @since 0.1.0
 * @see SharedHttpClients
 */
public final class SharedHttpClient implements AutoCloseable {

	/** The most callback threads running at once. */
	static final int CALLBACK_THREADS = 8;

	private static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(30);

	private final @Nullable ThreadPoolExecutor ownExecutor;

	private final @Nullable ExecutorService ownSenders;

	private volatile @Nullable HttpClient client;

	// told when a server that took the client from its owner no longer uses it
	private final Consumer<SharedHttpClient> released;

	/**
	 * Creates a client with the default settings, and its executor.
	 */
	public SharedHttpClient() {
		this(HttpClientSettings.DEFAULTS, null, null, null, (client) -> {
		});
	}

	/**
	 * Creates a client.
	 * @param settings its settings
	 * @param tls the TLS of the SSL bundle the settings name, or {@code null} when they
	 * name none
	 * @param executor the executor of its callbacks, or {@code null} for one of its own,
	 * shut down at {@link #close()}
	 * @param senders the threads its exchanges wait for their headers on (see
	 * {@link OwnThreadsHttpClient}), or {@code null} for a pool of its own, shut down at
	 * {@link #close()}
	 * @param released told at each {@link #release()}
	 */
	SharedHttpClient(HttpClientSettings settings, @Nullable HttpTls tls, @Nullable Executor executor,
			@Nullable ExecutorService senders, Consumer<SharedHttpClient> released) {
		this.released = released;
		this.ownExecutor = (executor != null) ? null : callbackExecutor();
		this.ownSenders = (senders != null) ? null : OwnThreadsHttpClient.senders();
		HttpClient jdkClient = builder(settings, tls).executor((executor != null) ? executor : this.ownExecutor)
			.build();
		this.client = new OwnThreadsHttpClient(jdkClient, (senders != null) ? senders : this.ownSenders);
	}

	/**
	 * Returns a builder of a client with the given settings, without its executor.
	 * @param settings the settings
	 * @param tls the TLS of the SSL bundle the settings name, or {@code null} when they
	 * name none
	 * @return the builder
	 */
	static HttpClient.Builder builder(HttpClientSettings settings, @Nullable HttpTls tls) {
		HttpClient.Builder builder = HttpClient.newBuilder()
			.version(settings.version())
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(settings.connectTimeout());
		if (settings.proxy() != null) {
			builder.proxy(ProxySelector.of(settings.proxy()));
		}
		if (tls != null) {
			builder.sslContext(tls.context());
			if (tls.parameters() != null) {
				builder.sslParameters(tls.parameters());
			}
		}
		return builder;
	}

	static ThreadPoolExecutor callbackExecutor() {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(CALLBACK_THREADS, CALLBACK_THREADS,
				IDLE_THREAD_KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
				daemonThreads("mcp-http-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	HttpClient client() {
		HttpClient current = this.client;
		if (current == null) {
			throw new IllegalStateException("The HTTP client of the MCP servers is closed");
		}
		return current;
	}

	/**
	 * Returns the JDK client, for the requests of a server's authorization.
	 * @return the client
	 * @throws IllegalStateException once closed
	 */
	public HttpClient httpClient() {
		return client();
	}

	/**
	 * Tells the client's owner that a server that took it ({@link SharedHttpClients}) no
	 * longer uses it: the last one to go closes it.
	 */
	public void release() {
		this.released.accept(this);
	}

	/**
	 * Releases the client: the threads of an executor of its own end, and the selector
	 * thread of the JDK's client ends once the client is unreachable (Java 17's
	 * {@link HttpClient} has no {@code close()}; the one of Java 21 waits for exchanges
	 * in flight, which a shutdown should not).
	 */
	@Override
	public void close() {
		this.client = null;
		if (this.ownExecutor != null) {
			this.ownExecutor.shutdown();
		}
		if (this.ownSenders != null) {
			this.ownSenders.shutdownNow();
		}
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
