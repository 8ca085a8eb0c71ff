package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on a loopback port in front of a loopback server, that counts the
 * connections its clients hold open: what a server sees of a client's connection pool. A
 * connection ends when either side closes it.
 */
final class CountingProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final int target;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private final Set<String> watched = ConcurrentHashMap.newKeySet();

	private final Set<String> seen = ConcurrentHashMap.newKeySet();

	// the client connections that forwarded each watched text
	private final Map<String, Set<Socket>> carriers = new ConcurrentHashMap<>();

	CountingProxy(int target) throws IOException {
		this.target = target;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.executor.execute(this::accept);
	}

	int port() {
		return this.listener.getLocalPort();
	}

	/**
	 * Watches the bytes forwarded either way for a text, also where it is split between
	 * two reads.
	 * @param text the text
	 */
	void watch(String text) {
		this.watched.add(text);
	}

	/** Whether a watched text was forwarded. */
	boolean forwarded(String text) {
		return this.seen.contains(text);
	}

	/**
	 * How many client connections that forwarded a watched text are open now.
	 * @param text the watched text
	 * @return the number of connections
	 */
	int openConnectionsCarrying(String text) {
		return (int) this.carriers.getOrDefault(text, Set.of()).stream().filter(this.open::contains).count();
	}

	/**
	 * How many client connections forwarded a watched text, open or closed.
	 * @param text the watched text
	 * @return the number of connections
	 */
	int connectionsCarrying(String text) {
		return this.carriers.getOrDefault(text, Set.of()).size();
	}

	/** How many client connections are open now. */
	int openConnections() {
		return this.open.size();
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket(InetAddress.getLoopbackAddress(), this.target);
				this.open.add(client);
				this.executor.execute(() -> pump(client, server));
				this.executor.execute(() -> pump(server, client));
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		// the end of the bytes read before, in which a watched text may begin
		String tail = "";
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
				if (!this.watched.isEmpty()) {
					String chunk = tail + new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
					this.watched.stream().filter(chunk::contains).forEach((text) -> {
						this.seen.add(text);
						this.carriers.computeIfAbsent(text, (key) -> ConcurrentHashMap.newKeySet()).add(from);
					});
					tail = chunk.substring(Math.max(0, chunk.length() - longestWatched()));
				}
			}
		}
		catch (IOException ex) {
			// one side closed the connection
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
			this.open.remove(from);
			this.open.remove(to);
		}
	}

	private int longestWatched() {
		return this.watched.stream().mapToInt(String::length).max().orElse(0);
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() {
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// closed already
		}
		this.open.forEach(CountingProxy::closeQuietly);
		this.executor.shutdownNow();
	}

}
