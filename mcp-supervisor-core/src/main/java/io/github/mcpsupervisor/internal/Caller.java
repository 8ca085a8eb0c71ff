package io.github.mcpsupervisor.internal;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;

/**
 * On whose behalf the application makes a request to a server: a user, or no user (a
 * scheduled job). Bound to the thread that makes the request while it is made, and
 * carried from there to the request's HTTP exchange in the transport context of its
 * Reactor context. A request the supervisor makes on its own (a connect, a listing, a
 * probe, a subscription) has no caller: it acts for the application.
 *
 * @param user the principal name of the user, or {@code null} for a request made for no
 * user
 */
public record Caller(@Nullable String user) {

	/** A request of the application's made for no user. */
	public static final Caller NO_USER = new Caller(null);

	/** The key of the caller in a request's {@link McpTransportContext}. */
	static final String KEY = "io.github.mcpsupervisor.caller";

	private static final ThreadLocal<Caller> CURRENT = new ThreadLocal<>();

	/**
	 * Returns the caller of a user.
	 * @param user the user's principal name, or {@code null} (or a blank name) for none
	 * @return the caller
	 */
	public static Caller of(@Nullable String user) {
		return (user != null && !user.isBlank()) ? new Caller(user) : NO_USER;
	}

	/**
	 * Makes a request as this caller on the current thread.
	 * @param <T> what the request gives
	 * @param request the request
	 * @return what it gave
	 */
	public <T> T call(Supplier<T> request) {
		Caller previous = CURRENT.get();
		CURRENT.set(this);
		try {
			return request.get();
		}
		finally {
			if (previous != null) {
				CURRENT.set(previous);
			}
			else {
				CURRENT.remove();
			}
		}
	}

	/**
	 * Returns the caller of the request the current thread makes.
	 * @return the caller, or {@code null} outside of a request of the application's
	 */
	public static @Nullable Caller current() {
		return CURRENT.get();
	}

	/**
	 * Returns what puts the current thread's caller, if any, in the Reactor context of a
	 * request, from which it reaches the request's HTTP exchanges.
	 * @return what writes the context
	 */
	public static Function<Context, Context> carried() {
		Caller caller = CURRENT.get();
		return (caller != null) ? caller::into : Function.identity();
	}

	/**
	 * Returns whether a request of the given method acts for the application whoever
	 * makes it: the requests that keep or tell what the supervisor keeps for the
	 * application (resource subscriptions, notifications).
	 * @param method the request's MCP method
	 * @return whether it acts for the application
	 */
	public static boolean actsForApplication(String method) {
		return method.startsWith("resources/subscribe") || method.startsWith("resources/unsubscribe")
				|| method.startsWith("notifications/");
	}

	/**
	 * Makes a request as the supervisor's own on the current thread: with no caller, for
	 * the time of the request.
	 * @param <T> what the request gives
	 * @param request the request
	 * @return what it gave
	 */
	public static <T> T none(Supplier<T> request) {
		Caller previous = CURRENT.get();
		if (previous == null) {
			return request.get();
		}
		CURRENT.remove();
		try {
			return request.get();
		}
		finally {
			CURRENT.set(previous);
		}
	}

	private Context into(Context context) {
		return context.put(McpTransportContext.KEY, McpTransportContext.create(Map.of(KEY, this)));
	}

	/**
	 * Returns the caller that a request's transport context carries.
	 * @param context the transport context of the request's HTTP exchange
	 * @return the caller, or {@code null} for a request the supervisor makes on its own
	 */
	public static @Nullable Caller of(McpTransportContext context) {
		return (context.get(KEY) instanceof Caller caller) ? caller : null;
	}

	@Override
	public String toString() {
		return (this.user != null) ? "Caller[a user]" : "Caller[no user]";
	}

}
