package io.github.mcpsupervisor.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public API is a decision: every public type outside the internal packages is listed
 * here, and each says since when it exists. A type made public, or no longer public,
 * fails this test until the list says so.
 */
class PublicApiTests {

	// this module's classes only, not those of the modules its tests run
	// the core's classes and the auto-configuration's: the API of what users add
	private static final List<Path> MODULES = List.of(Path.of("../mcp-supervisor-core"), Path.of("."));

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.importPaths(MODULES.stream().map((module) -> module.resolve("target/classes")).toList());

	private static final List<String> API = List.of("io.github.mcpsupervisor.actuate.McpEndpoint",
			"io.github.mcpsupervisor.actuate.McpEndpointWebExtension",
			"io.github.mcpsupervisor.actuate.McpServersHealthContributor",
			"io.github.mcpsupervisor.authorization.InMemoryMcpAuthorizationStore",
			"io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore",
			"io.github.mcpsupervisor.authorization.McpAuthorizationException",
			"io.github.mcpsupervisor.authorization.McpAuthorizationRequest",
			"io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent",
			"io.github.mcpsupervisor.authorization.McpAuthorizationStore",
			"io.github.mcpsupervisor.authorization.McpServerAuthorizations",
			"io.github.mcpsupervisor.authorization.McpUserAuthorizationException",
			"io.github.mcpsupervisor.authorization.McpUserAuthorizationRequiredEvent",
			"io.github.mcpsupervisor.authorization.McpUserResolver",
			"io.github.mcpsupervisor.autoconfigure.McpServerRegistry",
			"io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointProperties",
			"io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.metrics.McpMetricsAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.observation.McpObservationAutoConfiguration",
			"io.github.mcpsupervisor.autoconfigure.observation.McpObservationProperties",
			"io.github.mcpsupervisor.autoconfigure.properties.McpClientType",
			"io.github.mcpsupervisor.autoconfigure.properties.McpHttpVersion",
			"io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties",
			"io.github.mcpsupervisor.autoconfigure.properties.McpTransportType",
			"io.github.mcpsupervisor.client.McpServerClient", "io.github.mcpsupervisor.client.McpServerClients",
			"io.github.mcpsupervisor.connector.McpConnectors", "io.github.mcpsupervisor.connector.StdioStarts",
			"io.github.mcpsupervisor.event.McpPromptsChangedEvent",
			"io.github.mcpsupervisor.event.McpResourcesChangedEvent",
			"io.github.mcpsupervisor.event.McpResourcesUpdatedEvent",
			"io.github.mcpsupervisor.event.McpServerStateChangedEvent",
			"io.github.mcpsupervisor.observation.DefaultMcpRequestObservationConvention",
			"io.github.mcpsupervisor.observation.McpRequestObservationContext",
			"io.github.mcpsupervisor.observation.McpRequestObservationConvention",
			"io.github.mcpsupervisor.observation.McpRequestObservationDocumentation",
			"io.github.mcpsupervisor.supervisor.CallPolicy", "io.github.mcpsupervisor.supervisor.HealthCheckPolicy",
			"io.github.mcpsupervisor.supervisor.McpCapabilityException",
			"io.github.mcpsupervisor.supervisor.McpConnector",
			"io.github.mcpsupervisor.supervisor.McpServerStartupException",
			"io.github.mcpsupervisor.supervisor.McpServerState",
			"io.github.mcpsupervisor.supervisor.McpServerStateChange",
			"io.github.mcpsupervisor.supervisor.McpServerStatus",
			"io.github.mcpsupervisor.supervisor.McpServerSupervisor",
			"io.github.mcpsupervisor.supervisor.McpServerUnavailableException",
			"io.github.mcpsupervisor.supervisor.McpStandbyStatus", "io.github.mcpsupervisor.supervisor.McpSupervisors",
			"io.github.mcpsupervisor.supervisor.ReconnectPolicy",
			"io.github.mcpsupervisor.supervisor.SupervisorListener",
			"io.github.mcpsupervisor.supervisor.SupervisorScheduler",
			"io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler",
			"io.github.mcpsupervisor.supervisor.ToolCatalog", "io.github.mcpsupervisor.supervisor.ToolSet",
			"io.github.mcpsupervisor.supervisor.ToolsWhenDown",
			"io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider",
			"io.github.mcpsupervisor.tool.McpToolNamesException", "io.github.mcpsupervisor.tool.McpToolNaming",
			"io.github.mcpsupervisor.tool.SupervisedToolCallback", "io.github.mcpsupervisor.tool.ToolCallObserver",
			"io.github.mcpsupervisor.transport.StdioServerDefinition",
			"io.github.mcpsupervisor.transport.StreamableHttpServerDefinition");

	@Test
	void thePublicTypesOutsideTheInternalPackagesAreTheListedOnes() {
		assertThat(publicTypes()).containsExactlyElementsOf(API);
	}

	@Test
	void everyPublicTypeOutsideTheInternalPackagesSaysSinceWhenItExists() throws IOException {
		for (String type : publicTypes()) {
			Path source = MODULES.stream()
				.map((module) -> module.resolve("src/main/java").resolve(type.replace('.', '/') + ".java"))
				.filter(Files::exists)
				.findFirst()
				.orElseThrow();
			assertThat(Files.readString(source)).as(type).contains("@since ");
		}
	}

	// built by the auto-configuration from the servers' sessions (users inject the bean),
	// and the hooks it wires into each supervisor: the dispatching of the application's
	// listeners off the supervisor's threads, the observation of requests
	private static final List<String> EXPOSED_FOR_THE_AUTO_CONFIGURATION = List.of(
			"io.github.mcpsupervisor.client.McpServerClient.<init>(io.github.mcpsupervisor.supervisor.McpServerSupervisor, io.github.mcpsupervisor.client.internal.McpServerSession) -> io.github.mcpsupervisor.client.internal.McpServerSession",
			"io.github.mcpsupervisor.client.McpServerClients.<init>(io.github.mcpsupervisor.supervisor.McpSupervisors, io.github.mcpsupervisor.client.internal.McpServerSessions) -> io.github.mcpsupervisor.client.internal.McpServerSessions",
			"io.github.mcpsupervisor.supervisor.SupervisorListener.dispatched(io.github.mcpsupervisor.supervisor.SupervisorListener, io.github.mcpsupervisor.internal.ListenerDispatcher) -> io.github.mcpsupervisor.internal.ListenerDispatcher",
			"io.github.mcpsupervisor.supervisor.McpServerSupervisor$Builder.requestObserver(io.github.mcpsupervisor.internal.McpRequestObserver) -> io.github.mcpsupervisor.internal.McpRequestObserver");

	@Test
	void noPublicMemberOfTheApiTakesOrReturnsAnInternalType() {
		List<String> exposed = new ArrayList<>();
		for (JavaClass api : publicTypesAndTheirPublicMemberTypes()) {
			for (JavaMember member : api.getMembers()) {
				if (member.getModifiers().contains(JavaModifier.PUBLIC)) {
					signatureTypes(member).stream()
						.filter((type) -> type.getPackageName().contains(".internal"))
						.forEach((type) -> exposed.add(member.getFullName() + " -> " + type.getName()));
				}
			}
		}
		List<String> allowed = new ArrayList<>(EXPOSED_FOR_THE_AUTO_CONFIGURATION);
		assertThat(exposed).containsExactlyInAnyOrderElementsOf(allowed);
	}

	// a nested type of the API is API too (a builder, a policy's part, a connection)
	private static List<JavaClass> publicTypesAndTheirPublicMemberTypes() {
		List<JavaClass> types = new ArrayList<>();
		publicTypes().forEach((name) -> types.add(CLASSES.get(name)));
		for (int i = 0; i < types.size(); i++) {
			JavaClass enclosing = types.get(i);
			CLASSES.stream()
				.filter((type) -> type.getEnclosingClass().filter(enclosing::equals).isPresent())
				.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC))
				.sorted(Comparator.comparing(JavaClass::getName))
				.forEach(types::add);
		}
		return types;
	}

	private static List<JavaClass> signatureTypes(JavaMember member) {
		List<JavaClass> types = new ArrayList<>();
		if (member instanceof JavaField field) {
			types.add(field.getRawType().getBaseComponentType());
		}
		if (member instanceof JavaCodeUnit code) {
			types.add(code.getRawReturnType().getBaseComponentType());
			code.getRawParameterTypes().forEach((parameter) -> types.add(parameter.getBaseComponentType()));
		}
		return types;
	}

	private static List<String> publicTypes() {
		return CLASSES.stream()
			.filter(JavaClass::isTopLevelClass)
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC))
			.map(JavaClass::getName)
			.filter((name) -> !name.contains(".internal."))
			.sorted()
			.toList();
	}

}
