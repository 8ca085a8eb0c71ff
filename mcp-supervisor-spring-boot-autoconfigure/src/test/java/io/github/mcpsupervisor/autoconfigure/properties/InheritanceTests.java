package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Inheritance}: the one rule by which a server inherits what it does not
 * set.
 */
class InheritanceTests {

	@Test
	void aSettingNotSetIsInheritedAndOneSetIsKept() {
		Server server = Inheritance.inherit(server(Map.of("request-timeout", "3s")),
				server(Map.of("request-timeout", "7s", "initialization-timeout", "9s")));
		assertThat(server.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
		assertThat(server.initializationTimeout()).isEqualTo(Duration.ofSeconds(9));
	}

	@Test
	void aGroupIsInheritedSettingBySetting() {
		Server server = Inheritance
			.inherit(server(Map.of("reconnect.max-attempts", "3", "reconnect.cooldown.enabled", "true")), server(
					Map.of("reconnect.max-attempts", "5", "reconnect.jitter", "0.1", "reconnect.cooldown.max", "1h")));
		assertThat(server.reconnect().maxAttempts()).isEqualTo(3);
		assertThat(server.reconnect().jitter()).isEqualTo(0.1);
		assertThat(server.reconnect().cooldown().enabled()).isTrue();
		assertThat(server.reconnect().cooldown().max()).isEqualTo(Duration.ofHours(1));
		assertThat(server.reconnect().initialDelay()).isNull();
	}

	@Test
	void aMapIsMergedByKeyTheOwnEntryWinning() {
		Server server = Inheritance.inherit(server(Map.of("call.timeouts[run]", "5m")),
				server(Map.of("call.timeouts[run]", "1m", "call.timeouts[search]", "2s")));
		assertThat(server.call().timeouts())
			.containsExactlyInAnyOrderEntriesOf(Map.of("run", Duration.ofMinutes(5), "search", Duration.ofSeconds(2)));
	}

	@Test
	void aListSetReplacesTheInheritedOne() {
		Server server = Inheritance.inherit(server(Map.of("inherit-env[0]", "AWS_*")),
				server(Map.of("inherit-env[0]", "JAVA_HOME", "inherit-env[1]", "GH_TOKEN")));
		assertThat(server.inheritEnv()).containsExactly("AWS_*");
	}

	@Test
	void aProxySetReplacesTheInheritedOneAsAWhole() {
		Server server = Inheritance
			.inherit(server(Map.of("http.proxy.host", "[::1]", "http.proxy.port", "8080")), server(
					Map.of("http.proxy.host", "proxy.example", "http.proxy.port", "3128", "http.ssl.bundle", "corp")));
		assertThat(server.http().proxy()).isEqualTo(new McpSupervisorProperties.Proxy("[::1]", 8080));
		assertThat(server.http().ssl().bundle()).isEqualTo("corp");
	}

	@Test
	void theRetryToolsSetReplaceTheInheritedOnes() {
		Server server = Inheritance.inherit(server(Map.of("call.retry-tools[0]", "search")),
				server(Map.of("call.retry-tools[0]", "read", "call.retry-tools[1]", "list")));
		assertThat(server.call().retryTools()).containsExactly("search");
	}

	@Test
	void theBuiltInValuesLeaveNothingUnsetButWhatIsOptional() {
		Server server = Inheritance.inherit(server(Map.of("command", "npx")), BuiltInSettings.SERVER);
		assertThat(server.command()).isEqualTo("npx");
		assertThat(server.isEnabled()).isTrue();
		assertThat(server.transport()).isEqualTo(McpTransportType.STDIO);
		assertThat(server.inheritEnv()).isEqualTo(List.of());
		assertThat(server.reconnect().cooldown().initial()).isEqualTo(Duration.ofMinutes(5));
		assertThat(server.logLevel()).isNull();
		assertThat(server.http().proxy().host()).isNull();
	}

	private static Server server(Map<String, ?> properties) {
		return McpPropertiesBinder.server(properties);
	}

}
