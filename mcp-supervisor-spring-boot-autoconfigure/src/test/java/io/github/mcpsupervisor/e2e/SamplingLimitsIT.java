package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.annotation.McpSampling;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bounds of a server's sampling requests, against npm's server-everything, whichever
 * way the application registered its sampling handler.
 */
@SuppressWarnings("deprecation") // sampling and roots: 2025-11-25 features that
									// 2026-07-28 deprecates
class SamplingLimitsIT {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withPropertyValues("mcp.servers.everything.command=node",
				"mcp.servers.everything.args[0]=" + TestServers.everythingScript());

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void anAnnotatedHandlerGetsTheTokenCapAndNoMoreRequestsThanTheRateAdmits() {
		this.contextRunner.withUserConfiguration(AnnotatedSampling.class)
			.withPropertyValues("mcp.servers.everything.sampling.max-per-minute=2",
					"mcp.servers.everything.sampling.max-tokens=5")
			.run((context) -> {
				AnnotatedSampling handler = context.getBean(AnnotatedSampling.class);
				McpServerSupervisor everything = awaitSamplingTool(context.getBean(McpSupervisors.class));
				assertThat(text(sample(everything, 10))).contains("sampled");
				assertThat(text(sample(everything, 3))).contains("sampled");
				CallToolResult refused = sample(everything, 10);
				assertThat(text(refused)).contains("sampling request refused")
					.contains("more than 2 sampling requests within a minute")
					.contains("sampling.max-per-minute");
				assertThat(handler.maxTokens).as("asked 10, capped at 5; asked 3, kept").containsExactly(5, 3);
			});
	}

	@Test
	void aCustomizersHandlerGetsNoMoreRequestsAtOnceThanTheBound() {
		this.contextRunner.withUserConfiguration(BlockingSampling.class)
			.withPropertyValues("mcp.servers.everything.sampling.max-concurrent=1")
			.run((context) -> {
				BlockingSampling handler = context.getBean(BlockingSampling.class);
				McpServerSupervisor everything = awaitSamplingTool(context.getBean(McpSupervisors.class));
				CompletableFuture<CallToolResult> first = CompletableFuture.supplyAsync(() -> sample(everything, 10));
				assertThat(handler.entered.await(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
				assertThat(text(sample(everything, 10))).contains("sampling request refused")
					.contains("already has 1 sampling request(s) in flight")
					.contains("sampling.max-concurrent");
				handler.release.countDown();
				assertThat(text(first.get())).contains("sampled");
				assertThat(text(sample(everything, 10))).as("the bound is free again").contains("sampled");
				assertThat(handler.requests).hasSize(2);
			});
	}

	private static McpServerSupervisor awaitSamplingTool(McpSupervisors supervisors) {
		McpServerSupervisor everything = supervisors.supervisor("everything");
		await().atMost(TestServers.PATIENCE).until(() -> everything.tools().find("trigger-sampling-request") != null);
		return everything;
	}

	private static CallToolResult sample(McpServerSupervisor everything, int maxTokens) {
		return everything.callTool(CallToolRequest.builder("trigger-sampling-request")
			.arguments(Map.of("prompt", "hello", "maxTokens", maxTokens))
			.build());
	}

	private static String text(CallToolResult result) {
		return TestServers.text(result);
	}

	private static CreateMessageResult answer() {
		return CreateMessageResult.builder(Role.ASSISTANT, "sampled", "scripted").build();
	}

	/**
	 * An annotated sampling handler that notes the tokens it was asked for.
	 */
	@Configuration(proxyBeanMethods = false)
	static class AnnotatedSampling {

		final List<Integer> maxTokens = new CopyOnWriteArrayList<>();

		@McpSampling(clients = "everything")
		CreateMessageResult sample(CreateMessageRequest request) {
			this.maxTokens.add(request.maxTokens());
			return answer();
		}

	}

	/**
	 * A customizer's sampling handler whose first answer waits until it is released.
	 */
	@Configuration(proxyBeanMethods = false)
	static class BlockingSampling {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final List<CreateMessageRequest> requests = new CopyOnWriteArrayList<>();

		@Bean
		McpClientCustomizer<McpClient.SyncSpec> blockingSampling() {
			return (name, spec) -> spec.capabilities(ClientCapabilities.builder().sampling().build())
				.sampling((request) -> {
					this.requests.add(request);
					this.entered.countDown();
					try {
						this.release.await(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					return answer();
				});
		}

	}

}
