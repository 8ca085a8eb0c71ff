package io.github.mcpsupervisor.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Serves the demo server in revision 2026-07-28 over stateless Streamable HTTP at
 * {@value #ENDPOINT} on the loopback address, in an embedded Tomcat.
 */
final class ModernDemoHttp {

	/** The path of the MCP endpoint. */
	static final String ENDPOINT = "/mcp";

	/** The start of the stderr line that gives the port it listens on. */
	static final String LISTENING = "listening on ";

	private static final String REQUEST = "demo.request";

	private static final String EXIT_CODE = "demo.exit-code";

	// held: java.util.logging keeps loggers weakly
	private static final Logger TOMCAT_LOGGER = Logger.getLogger("org.apache");

	/**
	 * Start serving.
	 * @param server the MCP server
	 * @param jsonMapper its JSON mapper
	 * @param port the port, 0 for any free one
	 * @return the port it listens on
	 */
	int start(McpServer server, McpJsonMapper jsonMapper, int port) {
		TOMCAT_LOGGER.setLevel(Level.WARNING);
		HttpServletMcpTransport transport = HttpServletMcpTransport.builder(server)
			.jsonMapper(jsonMapper)
			.endpoint(ENDPOINT)
			.contextExtractor((request) -> McpTransportContext.create(Map.of(REQUEST, request)))
			.build();
		try {
			Path baseDir = Files.createTempDirectory("mcp-demo-tomcat");
			Tomcat tomcat = new Tomcat();
			tomcat.setBaseDir(baseDir.toString());
			Connector connector = new Connector();
			connector.setPort(port);
			connector.setProperty("address", "127.0.0.1");
			tomcat.setConnector(connector);
			Context context = tomcat.addContext("", baseDir.toString());
			context.addServletContainerInitializer((classes, servletContext) -> {
				ServletRegistration.Dynamic mcp = servletContext.addServlet("mcp", transport);
				mcp.setAsyncSupported(true);
				mcp.addMapping(ENDPOINT);
				servletContext.addListener(new ExitAfterRequest());
			}, null);
			tomcat.start();
			// a servlet without JSPs needs nothing on disk once started
			delete(baseDir);
			return connector.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (LifecycleException ex) {
			throw new IllegalStateException("cannot start Tomcat on port " + port, ex);
		}
	}

	/**
	 * Mark the request of the given call, so that the process exits once its response is
	 * out.
	 * @param context the call's context
	 * @param exitCode the exit code
	 */
	void exitAfterReply(McpRequestContext context, int exitCode) {
		if (context.transportContext().get(REQUEST) instanceof HttpServletRequest request) {
			request.setAttribute(EXIT_CODE, exitCode);
		}
		else {
			Runtime.getRuntime().halt(exitCode);
		}
	}

	private static void delete(Path directory) throws IOException {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
	}

	/**
	 * Ends the process after a request whose call asked for it, once its response is
	 * complete.
	 */
	private static final class ExitAfterRequest implements ServletRequestListener {

		@Override
		public void requestDestroyed(ServletRequestEvent event) {
			ServletRequest request = event.getServletRequest();
			if (request.getAttribute(EXIT_CODE) instanceof Integer exitCode) {
				Thread exit = new Thread(() -> {
					// the container flushes the response after the listeners ran
					DemoMcpServer.pause(200);
					Runtime.getRuntime().halt(exitCode);
				}, "demo-crash");
				exit.start();
			}
		}

	}

}
