package io.github.mcpsupervisor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpProtocol;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.TestServerSettings;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorizations;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link DefaultMcpConnectorFactory}.
 */
class DefaultMcpConnectorFactoryTests {

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private DefaultMcpConnectorFactory factory = factory(true);

	@AfterEach
	void close() {
		this.factory.destroy();
		this.scheduler.close();
	}

	@Test
	void eachProtocolGetsItsConnector() {
		assertThat(this.factory.create(stdio(McpProtocol.AUTO))).isInstanceOf(NegotiatingConnector.class);
		assertStdio(this.factory.create(stdio(McpProtocol.V2025_11_25)), "2025-11-25");
		assertStdio(this.factory.create(stdio(McpProtocol.V2026_07_28)), "2026-07-28");
		assertHttp(this.factory.create(http(McpProtocol.V2025_11_25)), "2025-11-25");
		assertHttp(this.factory.create(http(McpProtocol.V2026_07_28)), "2026-07-28");
	}

	@Test
	void withoutTheModernSdkAutoSpeaks2025Only() {
		this.factory = factory(false);
		assertStdio(this.factory.create(stdio(McpProtocol.AUTO)), "2025-11-25");
		assertHttp(this.factory.create(http(McpProtocol.AUTO)), "2025-11-25");
	}

	private static void assertStdio(McpConnector connector, String revision) {
		assertThat(connector).isInstanceOfSatisfying(StdioConnector.class,
				(stdio) -> assertThat(stdio.revision()).isEqualTo(revision));
	}

	private static void assertHttp(McpConnector connector, String revision) {
		assertThat(connector).isInstanceOfSatisfying(StreamableHttpConnector.class,
				(http) -> assertThat(http.revision()).isEqualTo(revision));
	}

	@Test
	void withoutTheModernSdkAServerPinnedTo2026FailsNamingTheFix() {
		this.factory = factory(false);
		assertThatIllegalStateException().isThrownBy(() -> this.factory.create(stdio(McpProtocol.V2026_07_28)))
			.withMessageContaining("'files' is set to protocol 2026-07-28")
			.withMessageContaining("manage io.modelcontextprotocol.sdk:mcp, mcp-core and mcp-json-jackson3 at 2.2.0");
	}

	private DefaultMcpConnectorFactory factory(boolean modernSdk) {
		return new DefaultMcpConnectorFactory(this.scheduler, McpClientFactory.standard(),
				new McpServerSessions(List.of(new McpServerSession("files", List.of()))), HttpTransportCustomizer.NONE,
				HttpAuthorizations.NONE, ProcessRecords::none, modernSdk);
	}

	private static McpServerSettings stdio(McpProtocol protocol) {
		return settings(McpTransportType.STDIO, protocol);
	}

	private static McpServerSettings http(McpProtocol protocol) {
		return settings(McpTransportType.STREAMABLE_HTTP, protocol);
	}

	private static McpServerSettings settings(McpTransportType transport, McpProtocol protocol) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("transport", transport.name().toLowerCase(Locale.ROOT).replace('_', '-'));
		properties.put("protocol", protocol.value());
		if (transport == McpTransportType.STDIO) {
			properties.put("command", "node");
		}
		else {
			properties.put("url", "http://127.0.0.1:1/mcp");
		}
		return TestServerSettings.of("files", properties);
	}

}
