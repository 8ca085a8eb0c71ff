package io.github.mcpsupervisor.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Runs the demo server in revision 2026-07-28 over stateless Streamable HTTP as a child
 * process of the application, so that the sample has an HTTP server to supervise without
 * anything else installed or started.
 *
 * <p>
 * The server's URL must be known when {@code mcp.servers.modern-http} is bound, before
 * any bean exists, so the process is started on {@link ApplicationPreparedEvent} (as
 * Spring Boot's Docker Compose support starts its services) and listens on a port it
 * picks itself, which it prints. That port is published as {@value #PORT_PROPERTY}, the
 * way {@code local.server.port} publishes the web server's, and {@code application.yml}
 * builds the URL from it: no port is chosen up front, so none can be taken in between.
 * The process is started like the stdio demo servers, with this JVM's {@code java} and
 * class path through Spring Boot's {@code PropertiesLauncher}, and is stopped by a
 * {@link SmartLifecycle} that stops after the supervisors, so that the supervisor never
 * sees it go while the application stops, or by this listener when the application fails
 * to start. When the JVM dies without stopping it, its standard input closes and it exits
 * by itself.
 *
 * <p>
 * It runs whenever the sample runs, even with the server disabled, so that the URL always
 * resolves. Nothing starts it again when it dies: it stands for a remote server, whose
 * restarts are its operator's business. The supervisor reconnects it within its budget
 * and then gives it up, while the application and its other servers keep working.
 */
class ModernHttpDemo implements SmartApplicationListener {

	/** The name of the server in {@code mcp.servers}. */
	static final String SERVER = "modern-http";

	/** The property that holds the port the server listens on. */
	static final String PORT_PROPERTY = "local.modern-http-demo.port";

	private static final String DEMO = "io.github.mcpsupervisor.demo.DemoMcpServer";

	private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final Log logger = LogFactory.getLog(ModernHttpDemo.class);

	private @Nullable Stopper stopper;

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ApplicationPreparedEvent.class.isAssignableFrom(eventType)
				|| ApplicationFailedEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationPreparedEvent prepared) {
			if (SampleApplication.isSample(prepared.getSpringApplication())) {
				start(prepared.getApplicationContext());
			}
		}
		else if (this.stopper != null) {
			// a context whose refresh failed stops no lifecycle
			this.stopper.stop();
		}
	}

	private void start(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		Process process = launch();
		int port;
		try {
			port = ServerCommands.awaitHttpPort(process, STARTUP_TIMEOUT);
		}
		catch (IllegalStateException ex) {
			process.destroyForcibly();
			throw ex;
		}
		logger.info("Started the demo MCP server (2026-07-28, Streamable HTTP) for '" + SERVER + "' on port " + port
				+ ", pid " + process.pid());
		environment.getPropertySources().addFirst(new MapPropertySource("modernHttpDemo", Map.of(PORT_PROPERTY, port)));
		this.stopper = new Stopper(process);
		context.getBeanFactory().registerSingleton("modernHttpDemo", this.stopper);
	}

	private static Process launch() {
		List<String> command = List.of(ServerCommands.java(), "-Dloader.main=" + DEMO, "-cp",
				System.getProperty("java.class.path"), LAUNCHER, "--http=0");
		try {
			return new ProcessBuilder(command).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the demo MCP server over HTTP", ex);
		}
	}

	/**
	 * Ends the process when the application stops: its standard input closed, then
	 * SIGTERM, then SIGKILL, each bounded.
	 */
	private static final class Stopper implements SmartLifecycle {

		private final Process process;

		private volatile boolean running;

		Stopper(Process process) {
			this.process = process;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
			try {
				this.process.getOutputStream().close();
			}
			catch (IOException ex) {
				// it is ended below all the same
			}
			this.process.destroy();
			if (!awaitExit()) {
				this.process.destroyForcibly();
				awaitExit();
			}
		}

		private boolean awaitExit() {
			try {
				return this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return !this.process.isAlive();
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
