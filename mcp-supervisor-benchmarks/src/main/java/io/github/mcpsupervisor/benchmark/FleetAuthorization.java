package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;

/**
 * Scenario 11: replicas of an application on one database share one OAuth authorization.
 * Three replicas (Spring contexts in this JVM, a connection pool each on one H2 server)
 * call a protected MCP server as a person authorized it, against an authorization server
 * that rotates refresh tokens and revokes the chain when a replaced one comes back, with
 * access tokens that live seconds. It counts the persons asked (goal 1), times the
 * completion through a replica that did not ask to every replica UP, then calls on every
 * replica at once for a while: failed calls (goal 0), renewals (one per token lifetime
 * less its renewal margin, for the whole fleet), the renewals found made by another
 * replica, and refresh tokens sent twice (goal 0).
 */
final class FleetAuthorization {

	/** How long the access tokens live. */
	static final Duration TOKEN_LIFETIME = Duration.ofSeconds(8);

	static final int REPLICAS = 3;

	static final int CALLERS_PER_REPLICA = 2;

	/** How often each caller starts a call: 100 calls a second per replica. */
	static final Duration CALL_INTERVAL = Duration.ofMillis(20);

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private final Duration load;

	private final Results results;

	FleetAuthorization(Duration load, Results results) {
		this.load = load;
		this.results = results;
	}

	void run() throws Exception {
		Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
		try (DemoAuthorizationServer authorizationServer = new DemoAuthorizationServer(TOKEN_LIFETIME);
				ProtectedDemoMcpServer server = new ProtectedDemoMcpServer(authorizationServer);
				ReplicaDatabase database = new ReplicaDatabase("replicas")) {
			List<Replica> replicas = new ArrayList<>();
			try {
				for (int i = 0; i < REPLICAS; i++) {
					replicas.add(new Replica("replica-" + i, database, authorizationServer,
							server.url(ProtectedDemoMcpServer.LEGACY)));
				}
				measure(replicas, authorizationServer, server);
			}
			finally {
				replicas.forEach(Replica::close);
			}
		}
		countThreadsLeft(before);
	}

	// The threads started since the scenario began that outlived it, once idle pools have
	// shrunk and unreachable HTTP clients (whose selector threads end with them) are
	// collected; those that would keep a JVM without System.exit alive apart.
	private void countThreadsLeft(Set<Thread> before) throws InterruptedException {
		System.gc();
		ThreadCensus.settled(PATIENCE);
		List<Thread> left = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread))
			.toList();
		this.results.put("authorization_threads_left_after_shutdown", left.size());
		this.results.put("authorization_non_daemon_threads_left_after_shutdown",
				left.stream().filter((thread) -> !thread.isDaemon()).count());
		left.forEach((thread) -> System.err.println("benchmark: left after the scenario: " + thread.getName()
				+ (thread.isDaemon() ? "" : " (non-daemon)")));
	}

	private void measure(List<Replica> replicas, DemoAuthorizationServer authorizationServer,
			ProtectedDemoMcpServer server) throws Exception {
		List<McpServerSupervisor> supervisors = replicas.stream().map(Replica::supervisor).toList();
		await("every replica waits for a person", () -> supervisors.stream()
			.allMatch((supervisor) -> supervisor.state() == McpServerState.NEEDS_AUTHORIZATION));
		// the event is published on the supervisor's scheduler, after the state change
		await("a replica asks a person", () -> asked(replicas) > 0);
		int asker = asker(replicas);
		McpAuthorizationRequest request = replicas.get(asker).asked().get(0);
		Map<String, String> redirect = authorizationServer.authorize(request.authorizationUri());
		// the person's browser comes back through a replica that did not ask
		int completer = (asker + 1) % replicas.size();
		long completed = System.nanoTime();
		replicas.get(completer).authorizations().complete(redirect);
		double[] up = awaitUp(supervisors, completed);
		long loadStarted = System.nanoTime();
		int refreshesBefore = authorizationServer.tokensIssued("refresh_token");
		ReplicaLoad load = new ReplicaLoad(supervisors, CALLERS_PER_REPLICA, CALL_INTERVAL);
		load.run(this.load);
		int refreshes = authorizationServer.tokensIssued("refresh_token") - refreshesBefore;
		long leftUp = replicas.stream().mapToLong((replica) -> replica.leftUpSince(loadStarted)).sum();
		record(replicas, authorizationServer, server, completer, up, load, refreshes, leftUp);
	}

	private void record(List<Replica> replicas, DemoAuthorizationServer authorizationServer,
			ProtectedDemoMcpServer server, int completer, double[] up, ReplicaLoad load, int refreshes, long leftUp) {
		String p = "authorization_";
		this.results.put(p + "replicas", replicas.size());
		this.results.put(p + "persons_asked", asked(replicas));
		this.results.put(p + "codes_exchanged", authorizationServer.tokensIssued("authorization_code"));
		double allUp = 0;
		for (int i = 0; i < up.length; i++) {
			String role = (i == completer) ? "completed_through" : "watching";
			this.results.put(p + "replica_" + i + "_" + role + "_up_ms", Stats.round(up[i]));
			allUp = Math.max(allUp, up[i]);
		}
		this.results.put(p + "completion_to_all_up_ms", Stats.round(allUp));
		this.results.put(p + "load_s", this.load.toSeconds());
		this.results.put(p + "callers_per_replica", CALLERS_PER_REPLICA);
		this.results.put(p + "call_interval_ms", CALL_INTERVAL.toMillis());
		this.results.put(p + "token_lifetime_s", TOKEN_LIFETIME.toSeconds());
		this.results.put(p + "calls", load.calls());
		this.results.put(p + "failed_calls", load.failed());
		load.failures().forEach((failure, count) -> System.err.println("benchmark: failed " + count + "×: " + failure));
		this.results.put(p + "calls_per_s", Stats.round(load.calls() / (double) this.load.toSeconds()));
		this.results.put(p + "left_up_during_load", leftUp);
		// the token response's expires_in is in whole seconds, those left when the
		// response is written: a token of 8 s is kept as one of 7 s
		Duration lifetime = replicas.get(0).tokenLifetime();
		this.results.put(p + "token_lifetime_kept_s", Stats.round(lifetime.toMillis() / 1000.0));
		// renewed a quarter of their lifetime before they expire: one renewal per three
		// quarters of a lifetime for the whole fleet, whatever the traffic
		double expected = this.load.toMillis() / (lifetime.toMillis() * 0.75);
		this.results.put(p + "renewals_expected", Stats.round(expected));
		this.results.put(p + "refresh_grants_during_load", refreshes);
		this.results.put(p + "refresh_grants", authorizationServer.tokensIssued("refresh_token"));
		this.results.put(p + "renewed", sum(replicas, "renewed"));
		this.results.put(p + "already_renewed", sum(replicas, "already-renewed"));
		this.results.put(p + "tokens_seen_by_server", server.tokens());
		this.results.put(p + "refresh_token_reuses", authorizationServer.refreshTokenReuses());
		this.results.put(p + "token_requests_refused", authorizationServer.tokenRequestsRefused());
		for (int i = 0; i < replicas.size(); i++) {
			List<Double> latencies = load.latencies(i);
			String r = p + "replica_" + i + "_";
			this.results.put(r + "calls", latencies.size());
			this.results.put(r + "renewed", replicas.get(i).renewals("renewed"));
			this.results.put(r + "already_renewed", replicas.get(i).renewals("already-renewed"));
			this.results.put(r + "call_ms_p50", Stats.round(Stats.median(latencies)));
			this.results.put(r + "call_ms_p99", Stats.round(Stats.percentile(latencies, 99)));
			this.results.put(r + "call_ms_max", Stats.round(Stats.percentile(latencies, 100)));
			this.results.put(r + "calls_over_100ms", latencies.stream().filter((millis) -> millis > 100).count());
		}
	}

	// Polls until every supervisor is UP: how long after the completion each was seen
	// UP, in milliseconds.
	private static double[] awaitUp(List<McpServerSupervisor> supervisors, long since) throws InterruptedException {
		double[] up = new double[supervisors.size()];
		Arrays.fill(up, -1);
		long deadline = since + PATIENCE.toNanos();
		int waiting = supervisors.size();
		while (waiting > 0) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("not every replica UP within " + PATIENCE);
			}
			for (int i = 0; i < up.length; i++) {
				if (up[i] < 0 && supervisors.get(i).state() == McpServerState.UP) {
					up[i] = BenchmarkServers.millis(System.nanoTime() - since);
					waiting--;
				}
			}
			Thread.sleep(1);
		}
		return up;
	}

	private static void await(String what, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("not within " + PATIENCE + ": " + what);
			}
			Thread.sleep(5);
		}
	}

	private static int asked(List<Replica> replicas) {
		return replicas.stream().mapToInt((replica) -> replica.asked().size()).sum();
	}

	private static int asker(List<Replica> replicas) {
		for (int i = 0; i < replicas.size(); i++) {
			if (!replicas.get(i).asked().isEmpty()) {
				return i;
			}
		}
		throw new IllegalStateException("no replica asked");
	}

	private static double sum(List<Replica> replicas, String result) {
		return replicas.stream().mapToDouble((replica) -> replica.renewals(result)).sum();
	}

}
