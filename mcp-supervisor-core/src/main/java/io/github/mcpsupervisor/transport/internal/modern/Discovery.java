package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.DiscoverResult;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import org.jspecify.annotations.Nullable;

/**
 * Asks a server {@code server/discover} and reads its answer as the revision's version
 * negotiation says: a result naming 2026-07-28 among its supported versions is a modern
 * server; an unsupported-version error or a result naming only other modern revisions is
 * a server this client cannot speak to; any other answer (an error of whatever code, a
 * result of another shape, no answer in time) is not a modern server.
 */
final class Discovery {

	/** The error a server answers when it supports none of the client's versions. */
	static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	private Discovery() {
	}

	/**
	 * Discovers the server.
	 * @param client the client of the generation
	 * @param timeout how long the answer may take
	 * @return the server's answer
	 * @throws NotModernException if the server did not answer as a 2026-07-28 server
	 * @throws UnsupportedRevisionException if it speaks only revisions this client does
	 * not
	 */
	static DiscoverResult discover(McpAsyncClient client, Duration timeout) {
		DiscoverResult result;
		try {
			result = client.discover().block(timeout);
		}
		catch (McpException ex) {
			List<String> supported = supported(ex);
			if (ex.error() != null && ex.error().code() != null && ex.error().code() == UNSUPPORTED_PROTOCOL_VERSION
					&& supported != null && !supported.contains(Revisions.V2026_07_28)) {
				if (supported.contains(Revisions.V2025_11_25)) {
					throw new NotModernException("server/discover was answered: only " + supported + " supported", true,
							ex);
				}
				throw new UnsupportedRevisionException(supported);
			}
			throw new NotModernException(
					"server/discover was answered with error " + ((ex.error() != null) ? ex.error().code() : null)
							+ ": "
							+ ServerText
								.forLog(String.valueOf((ex.error() != null) ? ex.error().message() : ex.getMessage())),
					true, ex);
		}
		catch (McpHttpStatusException ex) {
			int status = ex.statusCode();
			if (status >= 400 && status < 500 && status != 401 && status != 403) {
				// a 2025-11-25 server refuses a request without a session this way
				throw new NotModernException("server/discover was answered with HTTP " + status, true, ex);
			}
			throw ex;
		}
		catch (RuntimeException ex) {
			if (ex instanceof McpTimeoutException || CauseChain.cause(ex, TimeoutException.class) != null
					|| isBlockTimeout(ex)) {
				throw new NotModernException("no answer to server/discover within " + timeout.toMillis() + " ms", false,
						ex);
			}
			throw ex;
		}
		if (result == null || result.supportedVersions() == null || result.supportedVersions().isEmpty()) {
			throw new NotModernException("server/discover was answered without supportedVersions", true, null);
		}
		if (!result.supportedVersions().contains(Revisions.V2026_07_28)) {
			boolean legacy = result.supportedVersions().contains(Revisions.V2025_11_25);
			if (legacy) {
				throw new NotModernException(
						"server/discover was answered: only " + result.supportedVersions() + " supported", true, null);
			}
			throw new UnsupportedRevisionException(result.supportedVersions());
		}
		return result;
	}

	// The versions an unsupported-version error names ({"supported": [...]}), if any.
	private static @Nullable List<String> supported(McpException ex) {
		Object data = (ex.error() != null) ? ex.error().data() : null;
		if (data instanceof Map<?, ?> map && map.get("supported") instanceof List<?> list) {
			return list.stream().map(String::valueOf).toList();
		}
		return null;
	}

	static boolean isBlockTimeout(RuntimeException ex) {
		return ex instanceof IllegalStateException && ex.getMessage() != null
				&& ex.getMessage().startsWith("Timeout on blocking read");
	}

}
