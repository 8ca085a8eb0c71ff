package io.github.mcpsupervisor.autoconfigure.properties;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Call;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Cooldown;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Defaults;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.HealthCheck;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Http;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Reconnect;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Sampling;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ElicitationLimits;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * Resolves the bound {@link McpSupervisorProperties} into the effective settings of each
 * enabled server: every setting a server does not set is taken from {@code mcp.defaults},
 * whose own defaults are those of the binding, and the result is converted into the
 * supervisor's policies.
 *
 * @since 0.1.0
 */
public final class McpServerSettingsResolver {

	private McpServerSettingsResolver() {
	}

	/**
	 * Returns the enabled servers with the settings they have once the defaults are
	 * applied, in the order of their names.
	 * @param properties the bound properties
	 * @return the effective settings of each enabled server
	 */
	public static List<McpServerSettings> resolve(McpSupervisorProperties properties) {
		List<McpServerSettings> settings = new ArrayList<>();
		new TreeMap<>(properties.servers()).forEach((name, server) -> {
			if (server.enabled()) {
				settings.add(settings(name, server, properties.defaults()));
			}
		});
		return List.copyOf(settings);
	}

	/**
	 * Returns the directory where the processes of the stdio servers are recorded:
	 * {@code mcp.runtime-directory}, or a directory per user, application name and
	 * working directory under {@code java.io.tmpdir}.
	 * @param properties the bound properties
	 * @param environment the environment, for {@code spring.application.name}
	 * @return the directory
	 */
	public static Path runtimeDirectory(McpSupervisorProperties properties, Environment environment) {
		Path directory = properties.runtimeDirectory();
		return (directory != null) ? directory
				: ProcessRecords.defaultDirectory(environment.getProperty("spring.application.name", "application"));
	}

	/**
	 * Returns the reconnect settings of each enabled server once the defaults are
	 * applied, before they are checked against each other, in the order of the names.
	 * @param properties the bound properties
	 * @return the reconnect settings, by server
	 */
	static Map<String, Reconnect> reconnects(McpSupervisorProperties properties) {
		Map<String, Reconnect> reconnects = new LinkedHashMap<>();
		new TreeMap<>(properties.servers()).forEach((name, server) -> {
			if (server.enabled()) {
				reconnects.put(name, reconnect(server, properties.defaults().reconnect()));
			}
		});
		return reconnects;
	}

	private static McpServerSettings settings(String name, Server server, Defaults defaults) {
		return new McpServerSettings(name, server.transport(), server.command(), server.args(), server.env(),
				server.workingDirectory(), server.url(), server.headers(), server.roots(),
				or(server.requestTimeout(), defaults.requestTimeout()),
				or(server.initializationTimeout(), defaults.initializationTimeout()),
				or(server.terminationGracePeriod(), defaults.terminationGracePeriod()),
				or(server.failOnStartupError(), defaults.failOnStartupError()),
				or(server.required(), defaults.required()), policy(reconnect(server, defaults.reconnect())),
				policy(call(server, defaults.call())), policy(healthCheck(server, defaults.healthCheck())),
				limits(sampling(server, defaults.sampling())), elicitation(server, defaults.elicitation()),
				or(server.inheritEnv(), defaults.inheritEnv()),
				McpProtocol.of(or(server.protocol(), defaults.protocol())),
				(server.logLevel() != null) ? server.logLevel() : defaults.logLevel(), server.oauth(),
				http(server, defaults.http()), or(server.toolNames(), defaults.toolNames()),
				or(server.toolsWhenDown(), defaults.toolsWhenDown()), call(server, defaults.call()).timeouts(),
				standby(server, defaults.standby()));
	}

	// a streamable-http server's process is not the application's: it ignores the
	// defaults' standby, and its own is refused by the validation
	private static boolean standby(Server server, McpSupervisorProperties.Standby defaults) {
		return server.transport() == McpTransportType.STDIO && or(server.standby().enabled(), defaults.enabled());
	}

	private static Http http(Server server, Http defaults) {
		McpSupervisorProperties.HttpOverrides own = server.http();
		// the proxy is one setting: a server's host and port replace the default's both
		return new Http(or(own.connectTimeout(), defaults.connectTimeout()), or(own.version(), defaults.version()),
				(own.ssl().bundle() != null) ? own.ssl() : defaults.ssl(),
				own.proxy().isSet() ? own.proxy() : defaults.proxy());
	}

	private static Reconnect reconnect(Server server, Reconnect defaults) {
		McpSupervisorProperties.ReconnectOverrides own = server.reconnect();
		return new Reconnect(or(own.enabled(), defaults.enabled()), or(own.initialDelay(), defaults.initialDelay()),
				or(own.maxDelay(), defaults.maxDelay()), or(own.maxAttempts(), defaults.maxAttempts()),
				or(own.jitter(), defaults.jitter()), cooldown(own.cooldown(), defaults.cooldown()));
	}

	private static Cooldown cooldown(McpSupervisorProperties.CooldownOverrides own, Cooldown defaults) {
		return new Cooldown(or(own.enabled(), defaults.enabled()), or(own.initial(), defaults.initial()),
				or(own.max(), defaults.max()));
	}

	private static Call call(Server server, Call defaults) {
		McpSupervisorProperties.CallOverrides own = server.call();
		return new Call(or(own.waitForRecovery(), defaults.waitForRecovery()), or(own.retry(), defaults.retry()),
				or(own.trustAnnotations(), defaults.trustAnnotations()), or(own.retryTools(), defaults.retryTools()),
				timeouts(own.timeouts(), defaults.timeouts()));
	}

	// The tools' timeouts are merged by tool name, the server's entry winning: a server
	// that gives one tool a timeout keeps the defaults' timeouts of its other tools.
	private static Map<String, Duration> timeouts(Map<String, Duration> own, Map<String, Duration> defaults) {
		Map<String, Duration> merged = new TreeMap<>(defaults);
		merged.putAll(own);
		return Collections.unmodifiableMap(merged);
	}

	/**
	 * Returns where each of a server's tool timeouts comes from: its own
	 * {@code call.timeouts}, or {@code mcp.defaults.call.timeouts}.
	 * @param properties the bound properties
	 * @param server the server's name
	 * @return {@code server} or {@code defaults}, by {@code call.timeouts[<tool>]}
	 */
	public static Map<String, String> timeoutOrigins(McpSupervisorProperties properties, String server) {
		Server own = properties.servers().get(server);
		Map<String, String> origins = new TreeMap<>();
		properties.defaults().call().timeouts().keySet().forEach((tool) -> origins.put(timeoutKey(tool), "defaults"));
		if (own != null) {
			own.call().timeouts().keySet().forEach((tool) -> origins.put(timeoutKey(tool), "server"));
		}
		return origins;
	}

	/**
	 * Returns the key under which the origin of a tool's own timeout is shown.
	 * @param tool the tool's name on the server
	 * @return the key, {@code call.timeouts[<tool>]}
	 */
	public static String timeoutKey(String tool) {
		return "call.timeouts[" + tool + "]";
	}

	private static HealthCheck healthCheck(Server server, HealthCheck defaults) {
		McpSupervisorProperties.HealthCheckOverrides own = server.healthCheck();
		return new HealthCheck(or(own.interval(), defaults.interval()), or(own.timeout(), defaults.timeout()),
				or(own.failureThreshold(), defaults.failureThreshold()));
	}

	private static ElicitationLimits elicitation(Server server, McpSupervisorProperties.Elicitation defaults) {
		McpSupervisorProperties.ElicitationOverrides own = server.elicitation();
		return new ElicitationLimits(or(own.maxConcurrent(), defaults.maxConcurrent()),
				or(own.maxPerMinute(), defaults.maxPerMinute()));
	}

	private static Sampling sampling(Server server, Sampling defaults) {
		McpSupervisorProperties.SamplingOverrides own = server.sampling();
		return new Sampling(or(own.maxConcurrent(), defaults.maxConcurrent()),
				or(own.maxPerMinute(), defaults.maxPerMinute()), or(own.maxTokens(), defaults.maxTokens()));
	}

	private static ReconnectPolicy policy(Reconnect reconnect) {
		return ReconnectPolicy.builder()
			.enabled(reconnect.enabled())
			.initialDelay(reconnect.initialDelay())
			.maxDelay(reconnect.maxDelay())
			.maxAttempts(reconnect.maxAttempts())
			.jitter(reconnect.jitter())
			.cooldown(new ReconnectPolicy.Cooldown(reconnect.cooldown().enabled(), reconnect.cooldown().initial(),
					reconnect.cooldown().max()))
			.build();
	}

	private static CallPolicy policy(Call call) {
		return CallPolicy.builder()
			.waitForRecovery(call.waitForRecovery())
			.retry(call.retry())
			.trustAnnotations(call.trustAnnotations())
			.retryTools(call.retryTools())
			.build();
	}

	private static HealthCheckPolicy policy(HealthCheck healthCheck) {
		return HealthCheckPolicy.builder()
			.interval(healthCheck.interval())
			.timeout(healthCheck.timeout())
			.failureThreshold(healthCheck.failureThreshold())
			.build();
	}

	private static SamplingLimits limits(Sampling sampling) {
		return new SamplingLimits(sampling.maxConcurrent(), sampling.maxPerMinute(), sampling.maxTokens());
	}

	private static <T> T or(@Nullable T value, T inherited) {
		return (value != null) ? value : inherited;
	}

}
