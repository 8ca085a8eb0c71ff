package io.github.mcpsupervisor.sample;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import io.github.mcpsupervisor.sample.SampleProperties.OAuthDemo;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.apache.catalina.LifecycleException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Runs the demo OAuth servers that the {@code replicas} profile supervises a server of
 * ({@code sample.oauth-demo.enabled}): a Spring Authorization Server and an MCP server
 * that its tokens protect, both in this JVM, on loopback ports that every instance of the
 * sample knows ({@code sample.oauth-demo.authorization-server-port}, 9000, and
 * {@code sample.oauth-demo.protected-server-port}, 9001), so that instances on one
 * database share them as replicas share their identity provider and their MCP servers.
 *
 * <p>
 * The first instance finds nothing on those ports and starts both, and stops them when it
 * stops; an instance that finds them there (their metadata answered, the protected server
 * naming that authorization server) uses them and starts none. When two start at once,
 * the one whose servers cannot listen uses the other's. A port of 0 starts servers of the
 * instance's own on free ports. Either way the ports in use are published as
 * {@value #AUTHORIZATION_SERVER_PORT_PROPERTY} and
 * {@value #PROTECTED_SERVER_PORT_PROPERTY}, before {@code mcp.servers} is bound, as
 * {@link ModernHttpDemo} publishes its port.
 */
class DemoOAuthServers implements SmartApplicationListener {

	/** The property that holds the port of the authorization server in use. */
	static final String AUTHORIZATION_SERVER_PORT_PROPERTY = "local.oauth-demo.authorization-server.port";

	/** The property that holds the port of the protected MCP server in use. */
	static final String PROTECTED_SERVER_PORT_PROPERTY = "local.oauth-demo.protected-server.port";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private static final Log logger = LogFactory.getLog(DemoOAuthServers.class);

	private @Nullable Running running;

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ApplicationPreparedEvent.class.isAssignableFrom(eventType)
				|| ApplicationFailedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationPreparedEvent prepared) {
			// not for the authorization server's own Spring application
			if (SampleApplication.isSample(prepared.getSpringApplication())) {
				start(prepared.getApplicationContext());
			}
		}
		else if (this.running != null) {
			// a context whose refresh failed stops no lifecycle
			this.running.stop();
		}
	}

	private void start(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		OAuthDemo settings = Binder.get(environment).bindOrCreate("sample", SampleProperties.class).oauthDemo();
		if (!settings.enabled()) {
			return;
		}
		Ports ports = new Ports(settings.authorizationServerPort(), settings.protectedServerPort());
		Running started = null;
		String others = "that another instance started";
		switch (ports.shareable() ? ports.probe() : Found.NOTHING) {
			case NOTHING -> {
				try {
					started = Running.start(settings);
				}
				catch (RuntimeException | IOException | LifecycleException ex) {
					// unless another instance is starting them on these ports
					if (!ports.shareable() || ports.probe() == Found.NOTHING || !ports.awaitDemo()) {
						throw new IllegalStateException("Cannot start the demo OAuth servers on 127.0.0.1:"
								+ ports.authorizationServer() + " and " + ports.protectedServer()
								+ ": set sample.oauth-demo.authorization-server-port and"
								+ " sample.oauth-demo.protected-server-port to free ports", ex);
					}
					others = "that another instance started at the same time (this one's could not listen on"
							+ " 127.0.0.1:" + ports.authorizationServer() + ", as logged above)";
				}
			}
			case STARTING -> {
				if (!ports.awaitDemo()) {
					throw new IllegalStateException("The demo authorization server answers on 127.0.0.1:"
							+ ports.authorizationServer() + ", but no MCP server it protects on 127.0.0.1:"
							+ ports.protectedServer() + " (sample.oauth-demo.protected-server-port)");
				}
			}
			case OTHER -> throw new IllegalStateException("127.0.0.1:" + ports.authorizationServer()
					+ " answers, but not as the demo authorization server: set"
					+ " sample.oauth-demo.authorization-server-port and sample.oauth-demo.protected-server-port"
					+ " to free ports, the same in every instance");
			case DEMO -> {
				// another instance's
			}
		}
		Ports inUse = (started != null) ? started.ports() : ports;
		String described = "the authorization server http://127.0.0.1:" + inUse.authorizationServer() + " (log in as "
				+ DemoAuthorizationServer.USER + ", password " + DemoAuthorizationServer.PASSWORD
				+ ") and the OAuth-protected MCP server http://127.0.0.1:" + inUse.protectedServer()
				+ ProtectedDemoMcpServer.MODERN;
		if (started != null) {
			logger.info("Started the demo OAuth servers: " + described + "; they stop with this instance");
			this.running = started;
			context.getBeanFactory().registerSingleton("demoOAuthServers", started);
		}
		else {
			logger.info("Using the demo OAuth servers " + others + ": " + described);
		}
		environment.getPropertySources()
			.addFirst(new MapPropertySource("demoOAuthServers", Map.of(AUTHORIZATION_SERVER_PORT_PROPERTY,
					inUse.authorizationServer(), PROTECTED_SERVER_PORT_PROPERTY, inUse.protectedServer())));
	}

	/**
	 * What answers on the configured ports.
	 */
	private enum Found {

		/** Nothing listens on the authorization server's port. */
		NOTHING,

		/** The demo authorization server, and the MCP server it protects. */
		DEMO,

		/** The demo authorization server, and not yet the MCP server it protects. */
		STARTING,

		/** Something else than the demo authorization server. */
		OTHER

	}

	/**
	 * The ports of the two servers.
	 *
	 * @param authorizationServer the authorization server's
	 * @param protectedServer the protected MCP server's
	 */
	private record Ports(int authorizationServer, int protectedServer) {

		private static final HttpClient http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

		// servers on free ports are the instance's own
		boolean shareable() {
			return this.authorizationServer != 0 && this.protectedServer != 0;
		}

		// until the servers another instance starts both answer
		boolean awaitDemo() {
			long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
			while (System.nanoTime() < deadline) {
				if (probe() == Found.DEMO) {
					return true;
				}
				try {
					Thread.sleep(250);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
			return false;
		}

		Found probe() {
			String issuer = "http://127.0.0.1:" + this.authorizationServer;
			JsonNode authorizationServer = metadata(issuer + "/.well-known/oauth-authorization-server");
			if (authorizationServer == null) {
				return Found.NOTHING;
			}
			if (!issuer.equals(authorizationServer.path("issuer").asString(""))) {
				return Found.OTHER;
			}
			JsonNode resource = metadata("http://127.0.0.1:" + this.protectedServer
					+ "/.well-known/oauth-protected-resource" + ProtectedDemoMcpServer.MODERN);
			boolean protectedByIt = resource != null && resource.path("authorization_servers")
				.valueStream()
				.anyMatch((named) -> issuer.equals(named.asString("")));
			return protectedByIt ? Found.DEMO : Found.STARTING;
		}

		// null when nothing listens; an empty object when something answers with no
		// JSON metadata
		private static @Nullable JsonNode metadata(String url) {
			try {
				HttpResponse<String> response = http.send(
						HttpRequest.newBuilder(URI.create(url)).timeout(PROBE_TIMEOUT).GET().build(),
						HttpResponse.BodyHandlers.ofString());
				return (response.statusCode() == 200) ? JsonMapper.shared().readTree(response.body())
						: JsonMapper.shared().createObjectNode();
			}
			catch (ConnectException ex) {
				return null;
			}
			catch (IOException | JacksonException ex) {
				return JsonMapper.shared().createObjectNode();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return JsonMapper.shared().createObjectNode();
			}
		}

	}

	/**
	 * The servers this instance started, a bean of its context, closed when the
	 * application stops: after the supervisors, so that its own never see them go.
	 */
	static final class Running implements SmartLifecycle {

		private final DemoAuthorizationServer authorizationServer;

		private final ProtectedDemoMcpServer protectedServer;

		private volatile boolean running;

		private boolean closed;

		private Running(DemoAuthorizationServer authorizationServer, ProtectedDemoMcpServer protectedServer) {
			this.authorizationServer = authorizationServer;
			this.protectedServer = protectedServer;
		}

		static Running start(OAuthDemo settings) throws IOException, LifecycleException {
			DemoAuthorizationServer authorizationServer = new DemoAuthorizationServer(settings.accessTokenLifetime(),
					settings.authorizationServerPort());
			try {
				return new Running(authorizationServer,
						new ProtectedDemoMcpServer(authorizationServer, settings.protectedServerPort()));
			}
			catch (IOException | LifecycleException | RuntimeException ex) {
				authorizationServer.close();
				throw ex;
			}
		}

		/**
		 * Returns the authorization server, which can also act as its user.
		 * @return the demo authorization server
		 */
		DemoAuthorizationServer authorizationServer() {
			return this.authorizationServer;
		}

		Ports ports() {
			return new Ports(URI.create(this.authorizationServer.issuer()).getPort(),
					URI.create(this.protectedServer.url(ProtectedDemoMcpServer.MODERN)).getPort());
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public synchronized void stop() {
			this.running = false;
			if (this.closed) {
				return;
			}
			this.closed = true;
			try {
				this.protectedServer.close();
			}
			catch (IOException | LifecycleException ex) {
				logger.warn("Cannot stop the protected demo MCP server", ex);
			}
			finally {
				this.authorizationServer.close();
			}
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		// below the supervisors': started before them, stopped after them
		@Override
		public int getPhase() {
			return McpSupervisors.PHASE - 1;
		}

	}

}
