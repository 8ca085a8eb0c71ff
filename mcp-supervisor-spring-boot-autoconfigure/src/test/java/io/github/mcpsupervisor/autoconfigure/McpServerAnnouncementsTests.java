package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.event.McpPromptsChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What servers announce of their resources and prompts reaches both the application's
 * {@link SupervisorListener} beans and its event listeners.
 */
class McpServerAnnouncementsTests {

	private static final Resource RESOURCE = Resource.builder("file:///a", "a").build();

	private static final Prompt PROMPT = Prompt.builder("greet").build();

	private static final ResourceContents CONTENTS = TextResourceContents.builder("file:///a", "new").build();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(Recorders.class);

	@Test
	void runWithASupervisorListenerShouldHearTheResourceAndPromptAnnouncements() {
		this.contextRunner.run((context) -> {
			announce(context.getBean(McpClientFactory.class));
			Recording recording = context.getBean(Recording.class);
			await().untilAsserted(() -> assertThat(recording.heard).containsExactly("resources files [a]",
					"prompts files [greet]", "updated files file:///a [new]"));
		});
	}

	@Test
	void runWithAnEventListenerShouldReceiveTheResourceAndPromptEvents() {
		this.contextRunner.run((context) -> {
			announce(context.getBean(McpClientFactory.class));
			Events events = context.getBean(Events.class);
			await().untilAsserted(() -> assertThat(events.received).containsExactly("resources files [a]",
					"prompts files [greet]", "updated files [new]"));
		});
	}

	private static void announce(McpClientFactory factory) {
		McpServerSession session = new McpServerSession("files", List.of());
		session.subscribe("file:///a");
		factory.resourcesChanged(session, List.of(RESOURCE));
		factory.promptsChanged(session, List.of(PROMPT));
		factory.resourceUpdated(session, "file:///a", List.of(CONTENTS));
	}

	private static String texts(List<ResourceContents> contents) {
		return contents.stream().map((each) -> ((TextResourceContents) each).text()).toList().toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class Recorders {

		@Bean
		Recording recording() {
			return new Recording();
		}

		@Bean
		Events events() {
			return new Events();
		}

	}

	static class Recording implements SupervisorListener {

		final List<String> heard = new CopyOnWriteArrayList<>();

		@Override
		public void resourcesChanged(String server, List<Resource> resources) {
			this.heard.add("resources " + server + " " + resources.stream().map(Resource::name).toList());
		}

		@Override
		public void promptsChanged(String server, List<Prompt> prompts) {
			this.heard.add("prompts " + server + " " + prompts.stream().map(Prompt::name).toList());
		}

		@Override
		public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
			this.heard.add("updated " + server + " " + uri + " " + texts(contents));
		}

	}

	static class Events {

		final List<String> received = new CopyOnWriteArrayList<>();

		@EventListener
		void on(McpResourcesChangedEvent event) {
			this.received.add("resources " + event.getServer() + " "
					+ event.getResources().stream().map(Resource::name).toList());
		}

		@EventListener
		void on(McpPromptsChangedEvent event) {
			this.received
				.add("prompts " + event.getServer() + " " + event.getPrompts().stream().map(Prompt::name).toList());
		}

		@EventListener
		void on(McpResourcesUpdatedEvent event) {
			this.received.add("updated " + event.getServer() + " " + texts(event.getContents()));
		}

	}

}
