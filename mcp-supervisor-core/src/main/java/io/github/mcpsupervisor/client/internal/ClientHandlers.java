package io.github.mcpsupervisor.client.internal;

import java.util.function.Function;

import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitUrlRequest;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * How the application answers a server's requests for input: the handlers a 2025-11-25
 * client is built with (by annotated handlers or customizers), each only where the client
 * declares its capability, so that they answer the input requests of 2026-07-28 servers
 * too.
 *
 * @param sampling answers {@code sampling/createMessage}, or {@code null}
 * @param formElicitation answers form elicitations, or {@code null}
 * @param urlElicitation answers URL elicitations, or {@code null}
 * @param elicitationDefaults whether an accepted form elicitation's content gets the
 * defaults of the requested schema for the fields it leaves out (SEP-1034), as the
 * client's {@code applyElicitationDefaults} says
 * @since 0.1.0
 */
public record ClientHandlers(@Nullable Function<CreateMessageRequest, Mono<CreateMessageResult>> sampling,
		@Nullable Function<ElicitFormRequest, Mono<ElicitResult>> formElicitation,
		@Nullable Function<ElicitUrlRequest, Mono<ElicitResult>> urlElicitation, boolean elicitationDefaults) {

	/** No handler at all. */
	public static final ClientHandlers NONE = new ClientHandlers(null, null, null);

	/**
	 * Creates handlers that leave an elicitation's content as the handler gave it.
	 * @param sampling answers {@code sampling/createMessage}, or {@code null}
	 * @param formElicitation answers form elicitations, or {@code null}
	 * @param urlElicitation answers URL elicitations, or {@code null}
	 */
	public ClientHandlers(@Nullable Function<CreateMessageRequest, Mono<CreateMessageResult>> sampling,
			@Nullable Function<ElicitFormRequest, Mono<ElicitResult>> formElicitation,
			@Nullable Function<ElicitUrlRequest, Mono<ElicitResult>> urlElicitation) {
		this(sampling, formElicitation, urlElicitation, false);
	}

	/**
	 * Returns the handlers of a client whose capabilities declare them: a handler whose
	 * capability the client does not declare answers nothing (the SDK's client never
	 * calls it either).
	 * @param capabilities the capabilities the client declares
	 * @param sampling its sampling handler, or {@code null}
	 * @param formElicitation its form elicitation handler, or {@code null}
	 * @param urlElicitation its URL elicitation handler, or {@code null}
	 * @param elicitationDefaults whether it applies the requested schema's defaults
	 * @return the handlers it answers with
	 */
	public static ClientHandlers declared(@Nullable ClientCapabilities capabilities,
			@Nullable Function<CreateMessageRequest, Mono<CreateMessageResult>> sampling,
			@Nullable Function<ElicitFormRequest, Mono<ElicitResult>> formElicitation,
			@Nullable Function<ElicitUrlRequest, Mono<ElicitResult>> urlElicitation, boolean elicitationDefaults) {
		if (capabilities == null) {
			return NONE;
		}
		ClientCapabilities.Elicitation elicitation = capabilities.elicitation();
		// a bare elicitation capability is the form mode of revisions before modes
		boolean form = elicitation != null
				&& (elicitation.form() != null || (elicitation.form() == null && elicitation.url() == null));
		boolean url = elicitation != null && elicitation.url() != null;
		return new ClientHandlers((capabilities.sampling() != null) ? sampling : null, form ? formElicitation : null,
				url ? urlElicitation : null, elicitationDefaults);
	}

}
