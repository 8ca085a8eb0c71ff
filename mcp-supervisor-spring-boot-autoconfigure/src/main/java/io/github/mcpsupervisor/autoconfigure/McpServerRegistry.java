package io.github.mcpsupervisor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.autoconfigure.properties.internal.SettingOrigins;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.internal.ChangeableMcpSupervisors;
import io.github.mcpsupervisor.tool.McpToolNaming;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.core.env.Environment;

/**
 * Adds, replaces and removes MCP servers while the application runs, given as they are
 * configured ({@link McpSupervisorProperties.Server}, the settings of
 * {@code mcp.servers.<name>}): each is validated as a configured one, inherits
 * {@code mcp.defaults} as they are when it is given, and is supervised as the others
 * (tools, health, endpoint, metrics, events, {@code McpServerClients}). The servers of
 * the configuration are applied through it too when their files or the environment
 * change. Changes are applied one at a time.
 *
 * @since 0.1.0
 */
public final class McpServerRegistry {

	/** The origin of every setting of a server added through this registry. */
	public static final String API_ORIGIN = "api";

	private static final Log logger = LogFactory.getLog(McpServerRegistry.class);

	private final McpSupervisors supervisors;

	private final McpServerFactory factory;

	private final McpServerSessions sessions;

	private final Environment environment;

	private final McpPropertiesBinder binder = new McpPropertiesBinder();

	private final Map<String, McpServerSettings> settings = new ConcurrentHashMap<>();

	// the servers given through this API rather than by the configuration
	private final Map<String, Boolean> given = new ConcurrentHashMap<>();

	// written under this, read without it: the configuration last applied (a change
	// holds the lock during a server's first attempt, which the endpoint must not wait
	// for)
	private volatile McpSupervisorProperties properties;

	private Map<String, McpServerSettings> configured;

	// the servers the application started with: their OAuth authorizations are set up
	// once, at startup, for their URLs
	private final Map<String, McpServerSettings> started;

	McpServerRegistry(McpSupervisors supervisors, McpServerFactory factory, McpServerSessions sessions,
			McpSupervisorProperties properties, Environment environment) {
		this.supervisors = supervisors;
		this.factory = factory;
		this.sessions = sessions;
		this.environment = environment;
		this.properties = properties;
		this.configured = byName(McpServerSettingsResolver.resolve(properties));
		this.started = this.configured;
		this.settings.putAll(this.configured);
	}

	/**
	 * Adds a server and, while the application runs, starts it and waits for its first
	 * attempt (bounded by its startup timeout). A server whose first attempt fails stays,
	 * reconnecting as its settings say ({@code fail-on-startup-error} is about the
	 * application's start).
	 * @param name the server's name, as in {@code mcp.servers.<name>}
	 * @param server its settings
	 * @return its status after its first attempt
	 * @throws IllegalArgumentException if a server has that name, or the server breaks a
	 * rule of the configuration (each broken rule is named)
	 */
	public synchronized McpServerStatus add(String name, McpSupervisorProperties.Server server) {
		McpServerSettings resolved = resolve(name, server);
		for (String existing : this.settings.keySet()) {
			if (McpPropertiesBinder.sameName(existing, name)) {
				throw new IllegalArgumentException("An MCP server named '" + existing + "' exists already"
						+ (existing.equals(name) ? "" : ", which is the same name to Spring Boot's relaxed binding"));
			}
		}
		McpServerStatus status = add(resolved);
		this.given.put(name, true);
		return status;
	}

	/**
	 * Adds a server given by its properties as they are written under
	 * {@code mcp.servers.<name>} (e.g. {@code command}, {@code args[0]},
	 * {@code env.TOKEN}), as {@link #add(String, McpSupervisorProperties.Server)} does.
	 * @param name the server's name
	 * @param properties its properties
	 * @return its status after its first attempt
	 * @throws IllegalArgumentException if a server has that name, or a property is
	 * unknown, cannot be converted or breaks a rule of the configuration
	 */
	public McpServerStatus add(String name, Map<String, ?> properties) {
		return add(name, server(name, properties));
	}

	/**
	 * Replaces a server by one given by its properties, as
	 * {@link #replace(String, McpSupervisorProperties.Server)} does.
	 * @param name the server's name
	 * @param properties its properties, as written under {@code mcp.servers.<name>}
	 * @return the new server's status after its first attempt
	 * @throws NoSuchElementException if no server has that name
	 * @throws IllegalArgumentException if a property is unknown, cannot be converted or
	 * breaks a rule of the configuration
	 */
	public McpServerStatus replace(String name, Map<String, ?> properties) {
		return replace(name, server(name, properties));
	}

	private static McpSupervisorProperties.Server server(String name, Map<String, ?> properties) {
		try {
			return McpPropertiesBinder.server(properties);
		}
		catch (BindException ex) {
			throw new IllegalArgumentException(
					"Invalid MCP server '" + name + "': " + ex.getMessage() + ": " + CauseChain.rootMessage(ex), ex);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid MCP server '" + name + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * Replaces a server, configured or added: the one that has the name is stopped (its
	 * tools withdrawn), and the new one starts once its process tree is gone.
	 * @param name the server's name
	 * @param server its new settings
	 * @return the new server's status after its first attempt
	 * @throws NoSuchElementException if no server has that name
	 * @throws IllegalArgumentException if the server breaks a rule of the configuration
	 */
	public synchronized McpServerStatus replace(String name, McpSupervisorProperties.Server server) {
		McpServerSettings resolved = resolve(name, server);
		this.supervisors.supervisor(name);
		McpServerStatus status = replace(resolved);
		this.given.put(name, true);
		return status;
	}

	/**
	 * Removes a server, configured or added: its tools are withdrawn at once, it is
	 * stopped, and this returns once its process tree is gone (bounded by its stop
	 * timeout); its meters are removed. The name may be given again at once.
	 * @param name the server's name
	 * @throws NoSuchElementException if no server has that name
	 */
	public synchronized void remove(String name) {
		changeable().remove(name);
		this.settings.remove(name);
		this.given.remove(name);
		this.sessions.remove(name);
	}

	/**
	 * Returns the settings of a server as it runs: what it sets, and what it inherits
	 * from {@code mcp.defaults} and the built-in values, each one set.
	 * @param name the server's name
	 * @return its effective settings, empty if no server has that name
	 */
	public Optional<McpSupervisorProperties.Server> settings(String name) {
		return Optional.ofNullable(this.settings.get(name)).map(McpServerSettings::server);
	}

	/**
	 * Returns where each inheritable setting of a server comes from: {@code server},
	 * {@code defaults} or {@code built-in} for a configured server, {@value #API_ORIGIN}
	 * for every setting of one given through this registry.
	 * @param name the server's name
	 * @return the origins, by setting
	 */
	public Map<String, String> origins(String name) {
		Map<String, String> origins = new LinkedHashMap<>(new SettingOrigins(this.environment).of(name));
		if (this.given.containsKey(name)) {
			settings(name).ifPresent((server) -> server.call()
				.timeouts()
				.keySet()
				.forEach((tool) -> origins.put(McpServerSettingsResolver.timeoutKey(tool), API_ORIGIN)));
			origins.replaceAll((setting, origin) -> API_ORIGIN);
		}
		else {
			origins.putAll(McpServerSettingsResolver.timeoutOrigins(this.properties, name));
		}
		return origins;
	}

	/**
	 * Returns how the tools of a server are named.
	 * @param name the server's name
	 * @return its naming, {@link McpToolNaming#PREFIXED} for a server that is not known
	 */
	public McpToolNaming toolNames(String name) {
		McpServerSettings server = this.settings.get(name);
		return (server != null) ? server.toolNames() : McpToolNaming.PREFIXED;
	}

	/**
	 * Applies a new configuration: servers it no longer has are removed, new ones added,
	 * changed ones replaced, the others left as they run. A server that a change cannot
	 * be applied to is told of in an error and left as it was; the others are applied.
	 * @param next the bound properties
	 * @param source what changed, for the log
	 * @return how many servers were added, replaced and removed
	 */
	synchronized int apply(McpSupervisorProperties next, String source) {
		Map<String, McpServerSettings> wanted = byName(McpServerSettingsResolver.resolve(next));
		Map<String, McpServerSettings> previous = this.configured;
		this.properties = next;
		// a server whose change fails keeps what it had, so that the next change of the
		// configuration tries it again
		Map<String, McpServerSettings> applied = new LinkedHashMap<>(wanted);
		this.configured = applied;
		int changes = 0;
		for (String name : previous.keySet()) {
			if (!wanted.containsKey(name) && this.settings.containsKey(name) && !this.given.containsKey(name)) {
				changes += applied(name, source, "removed", () -> remove(name));
			}
		}
		for (McpServerSettings server : wanted.values()) {
			String name = server.name();
			// what the configuration did not change stays as it is, even if the API
			// changed it
			if (Objects.equals(previous.get(name), server) || Objects.equals(this.settings.get(name), server)) {
				continue;
			}
			boolean exists = this.settings.containsKey(name);
			int done = applied(name, source, exists ? "replaced" : "added", () -> {
				if (exists) {
					replace(server);
				}
				else {
					add(server);
				}
				this.given.remove(name);
			});
			if (done == 0) {
				if (previous.containsKey(name)) {
					applied.put(name, previous.get(name));
				}
				else {
					applied.remove(name);
				}
			}
			changes += done;
		}
		return changes;
	}

	private int applied(String name, String source, String what, Runnable change) {
		try {
			change.run();
			logger.info("MCP server '" + name + "' " + what + " by a change of " + source);
			return 1;
		}
		catch (RuntimeException ex) {
			logger.error("MCP server '" + name + "' could not be " + what + " after a change of " + source + ": "
					+ ex.getMessage(), ex);
			return 0;
		}
	}

	// the supervisors of the auto-configuration; an application's own McpSupervisors
	// bean keeps the servers it was made with
	private ChangeableMcpSupervisors changeable() {
		if (this.supervisors instanceof ChangeableMcpSupervisors changeable) {
			return changeable;
		}
		throw new UnsupportedOperationException("The servers of the application's own McpSupervisors bean cannot be"
				+ " changed while it runs: remove that bean to let McpServerRegistry change them");
	}

	/**
	 * Returns the properties last applied.
	 * @return the properties
	 */
	McpSupervisorProperties properties() {
		return this.properties;
	}

	private McpServerSettings resolve(String name, McpSupervisorProperties.Server server) {
		McpSupervisorProperties current = properties();
		this.binder.validate(name, server, current);
		return McpServerSettingsResolver.settings(name, server, current);
	}

	private McpServerStatus add(McpServerSettings server) {
		// refused before anything is made for the server
		ChangeableMcpSupervisors supervisors = changeable();
		SupervisedServer supervised = create(server);
		McpServerStatus status;
		try {
			status = supervisors.add(supervised);
		}
		catch (RuntimeException ex) {
			this.sessions.remove(server.name());
			// never started: what its connector took is given back
			supervised.supervisor().retire();
			throw ex;
		}
		this.settings.put(server.name(), server);
		return status;
	}

	private McpServerStatus replace(McpServerSettings server) {
		ChangeableMcpSupervisors supervisors = changeable();
		SupervisedServer supervised = create(server);
		this.settings.put(server.name(), server);
		return supervisors.replace(supervised);
	}

	// the session a failed creation gave the server is taken back
	// An authorization is bound to the server and URL it was set up for at startup: a
	// server given with OAuth while the application runs would either have none or
	// send another server's token.
	private void requireAuthorizationOfTheStart(McpServerSettings server) {
		if (!server.oauth().isEnabled()) {
			return;
		}
		McpServerSettings start = this.started.get(server.name());
		if (start == null || !start.oauth().equals(server.oauth()) || !Objects.equals(start.url(), server.url())) {
			throw new IllegalArgumentException("MCP server '" + server.name()
					+ "' has oauth settings that differ from those it started with (or did not start): the"
					+ " authorizations of OAuth servers are set up at startup for their URL, so a server with"
					+ " oauth can be added, or its url or oauth changed, only by restarting the application");
		}
	}

	private SupervisedServer create(McpServerSettings server) {
		requireAuthorizationOfTheStart(server);
		McpServerSession before = session(server.name());
		try {
			return this.factory.create(server);
		}
		catch (RuntimeException ex) {
			if (before != null) {
				this.sessions.put(before);
			}
			else {
				this.sessions.remove(server.name());
			}
			throw ex;
		}
	}

	private @Nullable McpServerSession session(String name) {
		try {
			return this.sessions.session(name);
		}
		catch (NoSuchElementException ex) {
			return null;
		}
	}

	private static Map<String, McpServerSettings> byName(List<McpServerSettings> servers) {
		Map<String, McpServerSettings> byName = new LinkedHashMap<>();
		servers.forEach((server) -> byName.put(server.name(), server));
		return byName;
	}

}
