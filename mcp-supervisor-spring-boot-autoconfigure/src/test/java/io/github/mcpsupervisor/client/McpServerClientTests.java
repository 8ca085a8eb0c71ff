package io.github.mcpsupervisor.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.SessionInfo;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Root;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-server client around outages, on virtual time.
 */
class McpServerClientTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
		.build();

	private final McpServerSession session = new McpServerSession("demo", List.of(new Root("file:///srv/a", "a")));

	private final McpServerClient client = new McpServerClient(this.supervisor, this.session);

	@Test
	void rootsSetDuringAnOutageAreKeptForTheNextGenerationWithoutWaitingForIt() {
		this.connector.session = new SessionInfo(ClientSpecs.clientInfo("demo"),
				ClientCapabilities.builder().roots(true).build(), null);
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		CompletableFuture<Void> set = CompletableFuture
			.runAsync(() -> this.client.setRoots(List.of(new Root("file:///srv/b", "b"))));
		assertThat(set).succeedsWithin(Duration.ofSeconds(10));
		assertThat(this.client.roots()).extracting(Root::uri).containsExactly("file:///srv/b");
	}

}
