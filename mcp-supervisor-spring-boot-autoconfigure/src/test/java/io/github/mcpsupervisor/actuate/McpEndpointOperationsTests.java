package io.github.mcpsupervisor.actuate;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerAction;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code mcp} endpoint acts on servers that exist and never takes a server's
 * settings: an operation that added a server, or changed its command, would let whoever
 * may write to the endpoint run a command on the host.
 */
class McpEndpointOperationsTests {

	// a server's name, the action, and who asks
	private static final Set<Class<?>> ALLOWED_PARAMETERS = Set.of(String.class, McpServerAction.class,
			SecurityContext.class);

	@Test
	void noOperationTakesMoreThanAServerNameAndAnAction() {
		List<String> operations = new ArrayList<>();
		for (Class<?> type : List.of(McpEndpoint.class, McpEndpointWebExtension.class)) {
			for (Method method : type.getDeclaredMethods()) {
				if (isOperation(method)) {
					operations.add(type.getSimpleName() + "." + method.getName());
					assertThat(method.getParameterTypes()).as(method.toString()).allMatch(ALLOWED_PARAMETERS::contains);
				}
			}
		}
		assertThat(operations).isNotEmpty();
	}

	@Test
	void theOnlyWritesAreResetAndRestartAndNothingIsDeleted() {
		assertThat(McpServerAction.values()).extracting(McpServerAction::id).containsExactly("reset", "restart");
		for (Class<?> type : List.of(McpEndpoint.class, McpEndpointWebExtension.class)) {
			assertThat(Arrays.stream(type.getDeclaredMethods())
				.filter((method) -> method.isAnnotationPresent(DeleteOperation.class))).isEmpty();
			assertThat(Arrays.stream(type.getDeclaredMethods())
				.filter((method) -> method.isAnnotationPresent(WriteOperation.class))
				.map(Method::getName)).containsExactly("act");
		}
	}

	private static boolean isOperation(Method method) {
		return method.isAnnotationPresent(ReadOperation.class) || method.isAnnotationPresent(WriteOperation.class)
				|| method.isAnnotationPresent(DeleteOperation.class);
	}

}
