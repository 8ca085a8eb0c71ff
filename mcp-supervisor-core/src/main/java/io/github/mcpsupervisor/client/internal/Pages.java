package io.github.mcpsupervisor.client.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Follows the cursors of a paginated MCP list within limits, so that a server whose
 * cursors never end, repeat, or list without bound cannot keep a request going or fill
 * the application's memory. The request that runs it is bounded in time as a whole.
 *
 * @since 0.1.0
 */
public final class Pages {

	/** The most pages followed. */
	static final int MAX_PAGES = 100;

	/** The most items collected. */
	static final int MAX_ITEMS = 10_000;

	private Pages() {
	}

	/**
	 * Collects every item of a list.
	 * @param <P> the type of a page
	 * @param <T> the type of an item
	 * @param server the server's name, for messages
	 * @param what what is listed, for messages
	 * @param page requests the page at a cursor ({@code null} for the first)
	 * @param items the items of a page
	 * @param next the cursor of the next page, {@code null} after the last
	 * @return the items of every page, in order
	 */
	public static <P, T> Mono<List<T>> all(String server, String what, Function<@Nullable String, Mono<P>> page,
			Function<P, @Nullable List<T>> items, Function<P, @Nullable String> next) {
		List<T> collected = new ArrayList<>();
		Set<String> cursors = new HashSet<>();
		return collect(server, what, page, items, next, null, collected, cursors, 1);
	}

	private static <P, T> Mono<List<T>> collect(String server, String what, Function<@Nullable String, Mono<P>> page,
			Function<P, @Nullable List<T>> items, Function<P, @Nullable String> next, @Nullable String cursor,
			List<T> collected, Set<String> cursors, int number) {
		return page.apply(cursor).flatMap((result) -> {
			List<T> listed = items.apply(result);
			if (listed != null) {
				collected.addAll(listed);
			}
			if (collected.size() > MAX_ITEMS) {
				return Mono.error(limit(server, what, "more than " + MAX_ITEMS + " items"));
			}
			String following = next.apply(result);
			if (following == null) {
				return Mono.just(List.copyOf(collected));
			}
			if (!cursors.add(following)) {
				return Mono.error(limit(server, what, "a repeated cursor"));
			}
			if (number >= MAX_PAGES) {
				return Mono.error(limit(server, what, "more than " + MAX_PAGES + " pages"));
			}
			return collect(server, what, page, items, next, following, collected, cursors, number + 1);
		});
	}

	private static IllegalStateException limit(String server, String what, String limit) {
		return new IllegalStateException("MCP server '" + server + "' listed " + what + " with " + limit);
	}

}
