package io.github.mcpsupervisor.actuate;

import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * HTTP status codes of the {@code mcp} endpoint: 404 for an unknown server, 400 for an
 * unknown action.
 */
@EndpointWebExtension(endpoint = McpEndpoint.class)
public class McpEndpointWebExtension {

	private final McpEndpoint delegate;

	public McpEndpointWebExtension(McpEndpoint delegate) {
		this.delegate = delegate;
	}

	@ReadOperation
	public WebEndpointResponse<Map<String, Object>> server(@Selector String server, SecurityContext securityContext) {
		Map<String, Object> details = this.delegate.server(server, securityContext);
		return (details != null) ? new WebEndpointResponse<>(details) : new WebEndpointResponse<>(
				error(this.delegate.noSuchServer(server)), WebEndpointResponse.STATUS_NOT_FOUND);
	}

	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> act(@Selector String server, @Selector String action) {
		SupervisedServer supervised = this.delegate.find(server);
		if (supervised == null) {
			return new WebEndpointResponse<>(error(this.delegate.noSuchServer(server)),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
		if (!action.equals("reset") && !action.equals("restart")) {
			return new WebEndpointResponse<>(error(McpEndpoint.unknownAction(action)),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		return new WebEndpointResponse<>(this.delegate.act(server, action));
	}

	private static Map<String, Object> error(String message) {
		return Map.of("error", message);
	}

}
