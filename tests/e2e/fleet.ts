/**
 * A console set up as production runs it, for a test file of its own: a Mosquitto configured by
 * `coldchain mqtt-config` (each device logs in as itself and publishes only under its own GUID;
 * the console changes the logins through the dynamic-security plugin), `coldchain serve` and one
 * `coldchain ingest` worker, all on free ports, over a temporary SQLite database with the demo
 * data. Devices are played by `devicePublish`: a paho client in the project's Python, logged in
 * with the login the console showed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, COMMON, freePort, run, start, stop, waitForOk, type Served } from './server';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const python = join(repo, '.venv', 'bin', 'python');
const MOSQUITTO = '/usr/sbin/mosquitto';

export interface FleetConsole {
  baseURL: string;
  /** The devices' listener, as the console shows it to a technician. */
  devicePort: number;
  /** The console's database, for what a person would read off their phone (a verification code). */
  database: string;
  /** Every process's output, for a failing test's message. */
  logs(): string;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export async function startFleetConsole(webDist: string): Promise<FleetConsole> {
  const work = mkdtempSync(join(tmpdir(), 'coldchain-fleet-'));
  chmodSync(work, 0o755); // Mosquitto started as root drops to its own user, which must reach its files
  const data = join(work, 'data');
  mkdirSync(data);
  chmodSync(data, 0o777);
  const [port, devicePort, ingestPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const database = join(work, 'fleet.db');
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    ...COMMON,
    APP_ENV: 'test',
    VAR_DIR: join(work, 'var'),
    DATABASE_URL: `sqlite:///${database}`,
    WEB_DIST: webDist,
    EDITION: 'domestic',
    MQTT_EMBEDDED: '0',
    MQTT_URL: `mqtt://127.0.0.1:${ingestPort}`,
    MQTT_DEVICE_URL: `mqtt://127.0.0.1:${devicePort}`,
    MQTT_INGEST_PASSWORD: 'fleet-ingest-password-0123456789',
    MQTT_ADMIN_PASSWORD: 'fleet-broker-admin-password-0123456789',
  };
  await run('migrate', env);
  await run('demo-seed', env);
  const conf = join(work, 'conf');
  await run(['mqtt-config', '--out', conf, '--port', String(devicePort), '--bind', '127.0.0.1', '--ingest-port',
    String(ingestPort), '--ingest-bind', '127.0.0.1', '--persistence-dir', data], env);
  chmodSync(conf, 0o777); // the plugin rewrites its file on every change
  chmodSync(join(conf, 'dynamic-security.json'), 0o666);

  const brokerLog = join(work, 'mosquitto.log');
  const log = openSync(brokerLog, 'w');
  const broker = spawn(MOSQUITTO, ['-c', join(conf, 'mosquitto.conf')], { stdio: ['ignore', log, log] });
  const processes: Served[] = [];
  const logs = () =>
    [`mosquitto:\n${readFileSync(brokerLog, 'utf8')}`, ...processes.map((p, i) => `process ${i}:\n${p.output()}`)].join('\n');
  const stopAll = async () => {
    await Promise.all(processes.map((p) => stop(p.process)));
    await stop(broker);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 10_000;
    for (const p of [devicePort, ingestPort]) {
      while (!(await listening(p))) {
        if (broker.exitCode !== null || Date.now() > deadline) throw new Error(`mosquitto did not listen on ${p}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    processes.push(start(['serve', '--host', '127.0.0.1', '--port', String(port)], env));
    processes.push(start(['ingest', '--client-id', `e2e-ingest-${port}`], { ...env, LOG_LEVEL: 'info' }));
    const baseURL = `http://127.0.0.1:${port}`;
    await waitForOk(`${baseURL}/api/base/health`, 'coldchain serve (fleet)', processes[0]!.process, logs);
    return { baseURL, devicePort, database, logs, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Publishes one message as a device over MQTT 5 with its own login; returns the broker's answer
 * to the connection ("accepted" or the reason it refused) and whether the message was sent.
 */
export function devicePublish(port: number, username: string, password: string, topic: string, payload: unknown): string {
  const script = `
import json, sys, threading
import paho.mqtt.client as mqtt
port, username, password, topic, payload = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
answered, outcome = threading.Event(), {}
def on_connect(client, userdata, flags, reason, properties):
    outcome["reason"] = "accepted" if not reason.is_failure else str(reason)
    answered.set()
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=username, protocol=mqtt.MQTTv5)
client.username_pw_set(username, password)
client.on_connect = on_connect
client.connect("127.0.0.1", port)
client.loop_start()
if not answered.wait(10):
    print("no answer"); sys.exit(1)
if outcome["reason"] == "accepted":
    client.publish(topic, payload, qos=1).wait_for_publish(10)
client.disconnect(); client.loop_stop()
print(outcome["reason"])
`;
  const result = spawnSync(python, ['-c', script, String(port), username, password, topic, JSON.stringify(payload)], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status !== 0) throw new Error(`the device could not publish: ${result.stderr}${result.stdout}`);
  return result.stdout.trim();
}

/** The last verification code the console sent to `recipient` (read off the phone, as it were). */
export function lastCode(database: string, recipient: string): string {
  const script = `
import json, sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute(
    "SELECT params FROM outbox_messages WHERE recipient = ? ORDER BY id DESC LIMIT 1", (sys.argv[2],)).fetchone()
print(json.loads(row[0])["code"] if row else "")
`;
  const result = spawnSync(python, ['-c', script, database, recipient], { encoding: 'utf8' });
  const code = result.stdout.trim();
  if (!code) throw new Error(`no code was sent to ${recipient}: ${result.stderr}`);
  return code;
}
