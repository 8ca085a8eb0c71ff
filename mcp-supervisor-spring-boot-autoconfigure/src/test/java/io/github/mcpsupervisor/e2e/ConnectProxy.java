package io.github.mcpsupervisor.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP proxy on a loopback port that takes {@code CONNECT} requests only, as clients
 * send them for https servers: it records each one and tunnels the connection to the
 * loopback port it names.
 */
final class ConnectProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	ConnectProxy() throws IOException {
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.executor.execute(this::accept);
	}

	int port() {
		return this.listener.getLocalPort();
	}

	/** The request lines it received, such as {@code CONNECT 127.0.0.1:8443 HTTP/1.1}. */
	List<String> requests() {
		return List.copyOf(this.requests);
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				this.executor.execute(() -> tunnel(client));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void tunnel(Socket client) {
		try (client) {
			InputStream in = client.getInputStream();
			String head = head(in);
			String requestLine = head.lines().findFirst().orElse("");
			this.requests.add(requestLine);
			String[] parts = requestLine.split(" ");
			OutputStream out = client.getOutputStream();
			if (parts.length < 2 || !"CONNECT".equals(parts[0])) {
				out.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
				return;
			}
			int port = Integer.parseInt(parts[1].substring(parts[1].lastIndexOf(':') + 1));
			try (Socket target = new Socket(InetAddress.getLoopbackAddress(), port)) {
				out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				this.executor.execute(() -> pipe(target, client));
				in.transferTo(target.getOutputStream());
			}
		}
		catch (IOException | RuntimeException ex) {
			// the connection ended
		}
	}

	private static void pipe(Socket from, Socket to) {
		try {
			from.getInputStream().transferTo(to.getOutputStream());
		}
		catch (IOException ex) {
			// the connection ended
		}
		finally {
			try {
				to.shutdownOutput();
			}
			catch (IOException ex) {
				// already closed
			}
		}
	}

	private static String head(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		byte[] end = { '\r', '\n', '\r', '\n' };
		while (matched < end.length) {
			int next = in.read();
			if (next < 0) {
				break;
			}
			head.write(next);
			matched = (next == end[matched]) ? matched + 1 : ((next == '\r') ? 1 : 0);
		}
		return head.toString(StandardCharsets.US_ASCII);
	}

	@Override
	public void close() throws IOException {
		this.listener.close();
		this.executor.shutdownNow();
	}

}
