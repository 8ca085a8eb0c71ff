package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.github.mcpsupervisor.demo.ServerCommands;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.ServletRegistration;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * {@link ModernContentMcpServer}'s server of revision 2026-07-28 over stateless
 * Streamable HTTP at {@code /mcp} on a free loopback port, in an embedded Tomcat: it
 * writes {@code listening on <port>} to stderr once it accepts connections and exits when
 * its standard input ends. Its arguments are those of {@link ModernContentMcpServer}.
 */
public final class ModernContentHttpMcpServer {

	private ModernContentHttpMcpServer() {
	}

	/**
	 * Starts the server in a new process of this JVM's java and class path, and waits
	 * until it listens.
	 * @param args the arguments of {@link ModernContentMcpServer}
	 * @return the process and its port
	 */
	static Started start(String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(TestServers.java(), "-cp", System.getProperty("java.class.path"),
				ModernContentHttpMcpServer.class.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try {
			return new Started(process, ServerCommands.awaitHttpPort(process, TestServers.PATIENCE));
		}
		catch (RuntimeException ex) {
			process.destroyForcibly();
			throw ex;
		}
	}

	public static void main(String[] args) throws IOException, LifecycleException {
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		HttpServletMcpTransport transport = HttpServletMcpTransport
			.builder(ModernContentMcpServer.server(jsonMapper, args))
			.jsonMapper(jsonMapper)
			.endpoint("/mcp")
			.build();
		Path baseDir = Files.createTempDirectory("modern-content-tomcat");
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(baseDir.toString());
		Connector connector = new Connector();
		connector.setPort(0);
		connector.setProperty("address", "127.0.0.1");
		tomcat.setConnector(connector);
		tomcat.addContext("", baseDir.toString()).addServletContainerInitializer((classes, context) -> {
			ServletRegistration.Dynamic mcp = context.addServlet("mcp", transport);
			mcp.setAsyncSupported(true);
			mcp.addMapping("/mcp");
		}, null);
		tomcat.start();
		// a servlet without JSPs needs nothing on disk once started
		try (Stream<Path> paths = Files.walk(baseDir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		System.err.println("listening on " + connector.getLocalPort());
		while (System.in.read() != -1) {
			// nothing is expected on stdin: its end means the parent is gone
		}
		Runtime.getRuntime().halt(0);
	}

	/**
	 * A started server.
	 *
	 * @param process its process
	 * @param port the loopback port it listens on
	 */
	record Started(Process process, int port) {

		String url() {
			return "http://127.0.0.1:" + this.port + "/mcp";
		}

	}

}
