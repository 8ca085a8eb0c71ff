package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import io.github.mcpsupervisor.autoconfigure.properties.McpServerSettings;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.ModernHttpConnector;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClient;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.ModernStdioConnector;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

/**
 * Creates the connector of each configured server by its transport, and closes the JDK
 * HTTP client that the streamable-http servers share when the context closes, after the
 * servers have stopped.
 */
final class DefaultMcpConnectorFactory implements McpConnectorFactory, DisposableBean {

	private final SupervisorScheduler scheduler;

	private final McpClientFactory clientFactory;

	private final McpServerSessions sessions;

	private final HttpTransportCustomizer httpCustomizer;

	private final List<StreamableHttpConnector> httpConnectors = new CopyOnWriteArrayList<>();

	// created with the first streamable-http server: an application without one has no
	// HTTP threads
	private @Nullable SharedHttpClient httpClient;

	private final Supplier<ProcessRecords> openRecords;

	// opened with the first stdio server: earlier runs' servers are terminated before
	// its first spawn
	private @Nullable ProcessRecords records;

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer) {
		this(scheduler, clientFactory, sessions, httpCustomizer, ProcessRecords::none);
	}

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, Supplier<ProcessRecords> openRecords) {
		this.openRecords = openRecords;
		this.scheduler = scheduler;
		this.clientFactory = clientFactory;
		this.sessions = sessions;
		this.httpCustomizer = httpCustomizer;
	}

	@Override
	public McpConnector create(McpServerSettings server) {
		return switch (server.protocol()) {
			case V2025_11_25 -> legacy(server);
			case V2026_07_28 -> modern(server);
			case AUTO -> new NegotiatingConnector(server.name(), modern(server), legacy(server));
		};
	}

	private McpConnector modern(McpServerSettings server) {
		return switch (server.transport()) {
			case STDIO -> new ModernStdioConnector(server.toStdioDefinition(), this.scheduler::execute,
					this.clientFactory, this.sessions.session(server.name()), records());
			case STREAMABLE_HTTP -> new ModernHttpConnector(server.toHttpDefinition(), this.clientFactory,
					this.sessions.session(server.name()), httpClient());
		};
	}

	private McpConnector legacy(McpServerSettings server) {
		return switch (server.transport()) {
			case STDIO -> new StdioConnector(server.toStdioDefinition(), this.scheduler::execute, this.clientFactory,
					this.sessions.session(server.name()), records());
			case STREAMABLE_HTTP -> {
				StreamableHttpConnector connector = new StreamableHttpConnector(server.toHttpDefinition(),
						this.clientFactory, this.sessions.session(server.name()), this.httpCustomizer, httpClient());
				this.httpConnectors.add(connector);
				yield connector;
			}
		};
	}

	private synchronized ProcessRecords records() {
		ProcessRecords current = this.records;
		if (current == null) {
			current = this.openRecords.get();
			this.records = current;
		}
		return current;
	}

	private synchronized SharedHttpClient httpClient() {
		SharedHttpClient current = this.httpClient;
		if (current == null) {
			current = new SharedHttpClient();
			this.httpClient = current;
		}
		return current;
	}

	@Override
	public synchronized void destroy() {
		// the supervisors depend on this factory: they have stopped by now
		this.httpConnectors.forEach(StreamableHttpConnector::close);
		this.httpConnectors.clear();
		if (this.httpClient != null) {
			this.httpClient.close();
			this.httpClient = null;
		}
	}

}
