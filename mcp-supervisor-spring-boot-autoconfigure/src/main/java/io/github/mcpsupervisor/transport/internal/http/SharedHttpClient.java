package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The one JDK {@link HttpClient} that the Streamable HTTP servers of an application
 * share, with the executor of its callbacks: one selector thread for all of them, and at
 * most {@value #CALLBACK_THREADS} callback threads that come and go with the load, none
 * of them held by a server; callbacks beyond them wait their turn. The callbacks read
 * responses and hand messages to the clients, which never block there. Each server still
 * sends its own headers and customizations with every request. Redirects are not
 * followed: a server's requests, with their credentials, go to its own URL only.
 * {@link #close() Close} it once every server using it has stopped.
 *
 * @since 0.1.0
 */
public final class SharedHttpClient implements AutoCloseable {

	/** The connect timeout of every connection. */
	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

	/** The most callback threads running at once. */
	static final int CALLBACK_THREADS = 8;

	private static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(30);

	private final ThreadPoolExecutor executor;

	private volatile @Nullable HttpClient client;

	/**
	 * Creates the client and its executor.
	 */
	public SharedHttpClient() {
		this.executor = new ThreadPoolExecutor(CALLBACK_THREADS, CALLBACK_THREADS, IDLE_THREAD_KEEP_ALIVE.toMillis(),
				TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), daemonThreads("mcp-http-"));
		this.executor.allowCoreThreadTimeOut(true);
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(CONNECT_TIMEOUT)
			.executor(this.executor)
			.build();
	}

	HttpClient client() {
		HttpClient current = this.client;
		if (current == null) {
			throw new IllegalStateException("The HTTP client of the MCP servers is closed");
		}
		return current;
	}

	/**
	 * Releases the client: the threads of its executor end, and the selector thread of
	 * the JDK's client ends once the client is unreachable (Java 17's {@link HttpClient}
	 * has no {@code close()}; the one of Java 21 waits for exchanges in flight, which a
	 * shutdown should not).
	 */
	@Override
	public void close() {
		this.client = null;
		this.executor.shutdown();
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
