package io.github.mcpsupervisor.actuate;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Supplier;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerAction;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code mcp} endpoint over HTTP: values shown to authorized users per
 * {@code show-values} and {@code roles}, and 404 for an unknown server.
 *
 * @since 0.1.0
 */
@EndpointWebExtension(endpoint = McpEndpoint.class)
public class McpEndpointWebExtension {

	private final McpEndpoint delegate;

	private final Show showValues;

	private final Set<String> roles;

	public McpEndpointWebExtension(McpEndpoint delegate, Show showValues, Set<String> roles) {
		this.delegate = delegate;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	@ReadOperation
	public WebEndpointResponse<Object> server(SecurityContext securityContext, @Selector String server) {
		boolean showUnsanitized = this.showValues.isShown(securityContext, this.roles);
		return respond(() -> this.delegate.describe(server, showUnsanitized));
	}

	@WriteOperation
	public WebEndpointResponse<Object> act(@Selector String server, @Selector McpServerAction action) {
		return respond(() -> this.delegate.act(server, action));
	}

	private static WebEndpointResponse<Object> respond(Supplier<OperationResponseBody> operation) {
		try {
			return new WebEndpointResponse<>(operation.get());
		}
		catch (NoSuchElementException ex) {
			return new WebEndpointResponse<>(OperationResponseBody.of(Map.of("error", String.valueOf(ex.getMessage()))),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
	}

}
