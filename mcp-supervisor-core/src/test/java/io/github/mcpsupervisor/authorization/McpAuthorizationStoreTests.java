package io.github.mcpsupervisor.authorization;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.SqlProvider;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the requests that {@link McpAuthorizationStore}s keep, the server's own and
 * its users', in memory and in a database (H2, with the starter's schema).
 */
class McpAuthorizationStoreTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

	@ParameterizedTest
	@EnumSource
	void aUsersRequestIsKeptApartFromTheServersOwnAndOtherUsers(Kind kind) {
		McpAuthorizationStore store = kind.store();
		PendingAuthorization own = request("remote", null, "own", NOW.plusSeconds(60));
		PendingAuthorization alice = request("remote", "alice", "a-1", NOW.plusSeconds(60));
		PendingAuthorization bob = request("remote", "bob", "b-1", NOW.plusSeconds(60));
		PendingAuthorization elsewhere = request("other", "alice", "o-1", NOW.plusSeconds(60));
		assertThat(store.awaitIfAbsent(own, NOW)).isEqualTo(own);
		assertThat(store.awaitIfAbsent(alice, NOW)).isEqualTo(alice);
		assertThat(store.awaitIfAbsent(bob, NOW)).isEqualTo(bob);
		assertThat(store.awaitIfAbsent(elsewhere, NOW)).isEqualTo(elsewhere);
		assertThat(store.pending("remote")).contains(own);
		assertThat(store.pending("remote", "alice")).contains(alice);
		assertThat(store.pending("remote", "bob")).contains(bob);
		assertThat(store.pending("other", "alice")).contains(elsewhere);
		assertThat(store.pending("other")).isEmpty();
		assertThat(store.pending("remote", "carol")).isEmpty();
		// a step-up of one user replaces that user's request only
		PendingAuthorization stepUp = request("remote", "alice", "a-2", NOW.plusSeconds(60));
		store.await(stepUp);
		assertThat(store.pending("remote", "alice")).contains(stepUp);
		assertThat(store.pending("remote")).contains(own);
		assertThat(store.pending("remote", "bob")).contains(bob);
		// and the server's own replaces none of its users'
		PendingAuthorization ownStepUp = request("remote", null, "own-2", NOW.plusSeconds(60));
		store.await(ownStepUp);
		assertThat(store.pending("remote")).contains(ownStepUp);
		assertThat(store.pending("remote", "alice")).contains(stepUp);
	}

	@ParameterizedTest
	@EnumSource
	void awaitIfAbsentReturnsTheUsersKeptRequestUntilItExpires(Kind kind) {
		McpAuthorizationStore store = kind.store();
		PendingAuthorization first = request("remote", "alice", "a-1", NOW.plusSeconds(60));
		assertThat(store.awaitIfAbsent(first, NOW)).isEqualTo(first);
		assertThat(store.awaitIfAbsent(request("remote", "alice", "a-2", NOW.plusSeconds(60)), NOW)).isEqualTo(first);
		assertThat(store.pending("remote", "alice")).contains(first);
		PendingAuthorization third = request("remote", "alice", "a-3", NOW.plusSeconds(120));
		assertThat(store.awaitIfAbsent(third, NOW.plusSeconds(60))).as("the first expired").isEqualTo(third);
		assertThat(store.pending("remote", "alice")).contains(third);
		// expired or not, the request is read
		assertThat(store.pending("remote", "alice"))
			.hasValueSatisfying((kept) -> assertThat(kept.isExpired(NOW.plusSeconds(120))).isTrue());
	}

	@ParameterizedTest
	@EnumSource
	void awaitIfAbsentAsksOnceForAUserWhenReplicasAskAtOnce(Kind kind) throws Exception {
		McpAuthorizationStore store = kind.store();
		int replicas = 8;
		ExecutorService executor = Executors.newFixedThreadPool(replicas);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<PendingAuthorization>> awaited = new ArrayList<>();
			for (int i = 0; i < replicas; i++) {
				PendingAuthorization asked = request("remote", "alice", "a-" + i, NOW.plusSeconds(60));
				awaited.add(executor.submit(() -> {
					start.await();
					return store.awaitIfAbsent(asked, NOW);
				}));
			}
			start.countDown();
			List<PendingAuthorization> answers = new ArrayList<>();
			for (Future<PendingAuthorization> answer : awaited) {
				answers.add(answer.get());
			}
			PendingAuthorization kept = store.pending("remote", "alice").orElseThrow();
			assertThat(answers).containsOnly(kept);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void theDatabaseKeepsTheUsersRequestOfTheReplicaThatAskedFirst() {
		DriverManagerDataSource dataSource = h2();
		JdbcMcpAuthorizationStore replica = new JdbcMcpAuthorizationStore(new JdbcTemplate(dataSource), CLOCK);
		PendingAuthorization first = request("remote", "alice", "a-1", NOW.plusSeconds(60));
		AtomicBoolean raced = new AtomicBoolean();
		// another replica's request kept between this one's read and its insert
		JdbcTemplate racing = new JdbcTemplate(dataSource) {

			@Override
			public int update(PreparedStatementCreator statement) {
				int count = super.update(statement);
				if (statement instanceof SqlProvider provider && provider.getSql() != null
						&& provider.getSql().startsWith("DELETE FROM mcp_user_authorization_request")
						&& raced.compareAndSet(false, true)) {
					replica.await(first);
				}
				return count;
			}

		};
		JdbcMcpAuthorizationStore store = new JdbcMcpAuthorizationStore(racing, CLOCK);
		PendingAuthorization second = request("remote", "alice", "a-2", NOW.plusSeconds(60));
		assertThat(store.awaitIfAbsent(second, NOW)).isEqualTo(first);
		assertThat(raced).isTrue();
		assertThat(store.pending("remote", "alice")).contains(first);
	}

	@ParameterizedTest
	@EnumSource
	void pendingWithStateFindsTheServersOwnAndItsUsersRequests(Kind kind) {
		McpAuthorizationStore store = kind.store();
		PendingAuthorization own = request("remote", null, "own", NOW.plusSeconds(60));
		PendingAuthorization alice = request("remote", "alice", "a-1", NOW.plusSeconds(60));
		PendingAuthorization elsewhere = request("other", "bob", "o-1", NOW.plusSeconds(60));
		store.await(own);
		store.await(alice);
		store.await(elsewhere);
		assertThat(store.pendingWithState("remote", "own")).contains(own);
		assertThat(store.pendingWithState("remote", "a-1")).contains(alice);
		assertThat(store.pendingWithState("remote", "o-1")).as("another server's").isEmpty();
		assertThat(store.pendingWithState("other", "o-1")).contains(elsewhere);
		assertThat(store.pendingWithState("other", "own")).isEmpty();
		assertThat(store.pendingWithState("remote", "a-")).isEmpty();
		assertThat(store.pendingWithState("remote", "unknown")).isEmpty();
		// expired or not, the request is read
		store.await(request("remote", "bob", "b-1", NOW.minusSeconds(1)));
		assertThat(store.pendingWithState("remote", "b-1")).isPresent();
	}

	@ParameterizedTest
	@EnumSource
	void completeForgetsTheRequestWithTheStateOnly(Kind kind) {
		McpAuthorizationStore store = kind.store();
		PendingAuthorization own = request("remote", null, "own", NOW.plusSeconds(60));
		PendingAuthorization alice = request("remote", "alice", "a-1", NOW.plusSeconds(60));
		PendingAuthorization bob = request("remote", "bob", "b-1", NOW.plusSeconds(60));
		PendingAuthorization elsewhere = request("other", "alice", "o-1", NOW.plusSeconds(60));
		List.of(own, alice, bob, elsewhere).forEach(store::await);
		assertThat(store.complete("remote", "o-1")).as("another server's").isFalse();
		assertThat(store.complete("remote", "unknown")).isFalse();
		assertThat(store.complete("remote", "a-1")).isTrue();
		assertThat(store.complete("remote", "a-1")).as("completed once").isFalse();
		assertThat(store.pending("remote", "alice")).isEmpty();
		assertThat(store.pending("remote")).contains(own);
		assertThat(store.pending("remote", "bob")).contains(bob);
		assertThat(store.pending("other", "alice")).contains(elsewhere);
		assertThat(store.complete("remote", "own")).isTrue();
		assertThat(store.pending("remote")).isEmpty();
		assertThat(store.pending("remote", "bob")).contains(bob);
		assertThat(store.complete("other", "o-1")).isTrue();
		assertThat(store.pending("other", "alice")).isEmpty();
	}

	@ParameterizedTest
	@EnumSource
	void aUsersRequestCarriesTheUserButDoesNotWriteItOut(Kind kind) {
		McpAuthorizationStore store = kind.store();
		store.await(request("remote", "alice@example.com", "a-1", NOW.plusSeconds(60)));
		PendingAuthorization kept = store.pending("remote", "alice@example.com").orElseThrow();
		assertThat(kept.user()).isEqualTo("alice@example.com");
		assertThat(kept.request().user()).isEqualTo("alice@example.com");
		assertThat(kept.request().server()).isEqualTo("remote");
		assertThat(kept).hasToString("PendingAuthorization[server=remote, registration=people, scopes=[mcp:read],"
				+ " expiresAt=2026-01-01T00:01:00Z]");
		store.await(request("remote", null, "own", NOW.plusSeconds(60)));
		assertThat(store.pending("remote").orElseThrow().user()).isNull();
		assertThat(store.pending("remote").orElseThrow().request().user()).isNull();
	}

	@Test
	void theMemoryKeepsTenThousandRequestsOfUsersDroppingTheExpiredThenTheOldest() {
		InMemoryMcpAuthorizationStore store = new InMemoryMcpAuthorizationStore(CLOCK);
		int max = InMemoryMcpAuthorizationStore.MAX_USER_REQUESTS;
		assertThat(max).isEqualTo(10_000);
		store.await(request("remote", null, "own", NOW.plusSeconds(60)));
		// the oldest expires, the second does not
		store.await(request("remote", "user-0", "s-0", NOW.plusSeconds(120)));
		store.await(request("remote", "user-1", "s-1", NOW.plusSeconds(60)));
		for (int i = 2; i < max; i++) {
			store.await(request("remote", "user-" + i, "s-" + i, NOW.plusSeconds((i % 2 == 0) ? 30 : 300)));
		}
		assertThat(store.pending("remote", "user-0")).isPresent();
		assertThat(store.pending("remote", "user-" + (max - 1))).isPresent();
		// one more, once the even ones expired: they go, and only they
		Instant later = NOW.plusSeconds(45);
		PendingAuthorization newest = request("remote", "newest", "n-1", NOW.plusSeconds(300));
		assertThat(store.awaitIfAbsent(newest, later)).isEqualTo(newest);
		assertThat(store.pending("remote", "newest")).contains(newest);
		assertThat(store.pending("remote", "user-0")).as("not expired, if the oldest").isPresent();
		assertThat(store.pending("remote", "user-1")).isPresent();
		assertThat(store.pending("remote", "user-2")).as("expired").isEmpty();
		assertThat(store.pending("remote", "user-3")).isPresent();
		assertThat(store.pending("remote")).as("the server's own, apart").isPresent();
		// full of requests that have not expired: the oldest goes
		int kept = max - ((max - 2) / 2) + 1;
		for (int i = 0; i < max - kept; i++) {
			store.awaitIfAbsent(request("remote", "filler-" + i, "f-" + i, NOW.plusSeconds(300)), later);
		}
		assertThat(countUsers(store, max)).isEqualTo(max);
		PendingAuthorization last = request("remote", "last", "l-1", NOW.plusSeconds(300));
		assertThat(store.awaitIfAbsent(last, later)).isEqualTo(last);
		assertThat(store.pending("remote", "last")).contains(last);
		assertThat(store.pending("remote", "user-0")).as("the oldest").isEmpty();
		assertThat(store.pending("remote", "user-1")).isPresent();
		assertThat(countUsers(store, max)).isEqualTo(max);
		// a request replaced is the newest
		store.await(request("remote", "user-1", "s-1-again", NOW.plusSeconds(300)));
		store.await(request("remote", "after", "after", NOW.plusSeconds(300)));
		assertThat(store.pending("remote", "user-1")).isPresent();
		assertThat(store.pending("remote", "user-3")).as("now the oldest").isEmpty();
	}

	@Test
	void checkTablesFailsNamingTheTableOfTheUsersRequestsWhenItIsMissing() {
		DriverManagerDataSource dataSource = h2();
		JdbcMcpAuthorizationStore store = new JdbcMcpAuthorizationStore(new JdbcTemplate(dataSource), CLOCK);
		store.checkTables();
		new JdbcTemplate(dataSource).execute("DROP TABLE mcp_user_authorization_request");
		assertThatExceptionOfType(BadSqlGrammarException.class).isThrownBy(store::checkTables)
			.satisfies((ex) -> assertThat(ex.getMostSpecificCause().getMessage())
				.containsIgnoringCase("mcp_user_authorization_request"));
	}

	// The users' requests kept, counted by their names.
	private static int countUsers(InMemoryMcpAuthorizationStore store, int max) {
		int count = 0;
		for (String prefix : List.of("user-", "filler-")) {
			for (int i = 0; i < max; i++) {
				if (store.pending("remote", prefix + i).isPresent()) {
					count++;
				}
			}
		}
		for (String user : List.of("newest", "last", "after")) {
			if (store.pending("remote", user).isPresent()) {
				count++;
			}
		}
		return count;
	}

	private static PendingAuthorization request(String server, @Nullable String user, String state, Instant expiresAt) {
		return new PendingAuthorization(server, "people", state, "verifier-" + state,
				URI.create("http://127.0.0.1:1/authorize?state=" + state),
				URI.create("http://127.0.0.1:8080/authorized"), List.of("mcp:read"), expiresAt, user);
	}

	private static DriverManagerDataSource h2() {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(
				"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		new ResourceDatabasePopulator(new ClassPathResource("io/github/mcpsupervisor/authorization/schema-h2.sql"))
			.execute(dataSource);
		return dataSource;
	}

	enum Kind {

		MEMORY {
			@Override
			McpAuthorizationStore store() {
				return new InMemoryMcpAuthorizationStore(CLOCK);
			}
		},

		JDBC {
			@Override
			McpAuthorizationStore store() {
				return new JdbcMcpAuthorizationStore(new JdbcTemplate(h2()), CLOCK);
			}
		};

		abstract McpAuthorizationStore store();

	}

}
