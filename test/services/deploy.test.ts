/**
 * deploy/: what can be checked here without Docker or a cluster. The Kubernetes
 * manifests parse and validate against the Kubernetes API schemas
 * (kubernetes-models), and hold together (the config the ConfigMap carries loads,
 * probes hit /healthz on the port it listens on, the grace period covers the
 * drain, the pool lists every model-server replica). The Dockerfile passes
 * dockerfile-utils' checks and says what the issue asks (non-root, a health
 * check on /healthz, the config it runs loads). The nginx example passes
 * `nginx -t` (.ci/run installs nginx; without it the test fails, never skips). Nothing here builds
 * the image or applies the manifests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { loadConfig, type RemoteBackendSettings } from '../../src/runtime/configuration.js';

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/**
 * The schemas above accept keys they do not know (a misspelt `readinesProbe` passes): the same
 * manifests as object literals typed with kubernetes-models' interfaces, compiled by TypeScript,
 * whose excess-property check names every unknown key. No file is written.
 */
function unknownKeys(list: Manifest[]): string[] {
  const file = resolve('test/services/deploy-manifests.generated.ts');
  const source = list
    .map((manifest, i) => {
      const [group, version] = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/') : ['', manifest.apiVersion];
      return `import type { I${manifest.kind} as T${i} } from 'kubernetes-models/${group ? `${group}/` : ''}${version}/${manifest.kind}';\nexport const m${i}: T${i} = ${JSON.stringify(manifest)};`;
    })
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  return ts
    .getPreEmitDiagnostics(ts.createProgram([file], options, host))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
}

// Loose views of the manifests, enough for the checks below.
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  env?: { name: string }[];
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    serviceName?: string;
    selector?: Record<string, unknown>;
    ports?: { targetPort: string | number }[];
    template?: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers: Container[];
      };
    };
  };
}

function manifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
    expect(document.errors).toEqual([]);
    return document.toJS() as Manifest;
  });
}

const proxyManifests = manifests('deploy/kubernetes/dialect-proxy.yaml');
const modelManifests = manifests('deploy/kubernetes/model-server.yaml');
const redisManifests = manifests('deploy/kubernetes/redis.yaml');
const find = (list: Manifest[], kind: string) => list.find((manifest) => manifest.kind === kind) as Manifest;

describe('Kubernetes manifests', () => {
  it.each(
    [...proxyManifests, ...modelManifests, ...redisManifests].map((manifest) => [`${manifest.kind} ${manifest.metadata.name}`, manifest]),
  )('%s validates against the Kubernetes schema', (_name, manifest) => {
    const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
    expect(Model).toBeDefined();
    expect(() => new Model(manifest as never).validate()).not.toThrow();
  });

  it("name no key the Kubernetes API types do not have (TypeScript's excess-property check)", () => {
    expect(unknownKeys([...proxyManifests, ...modelManifests, ...redisManifests])).toEqual([]);
    expect(
      unknownKeys([{ ...find(proxyManifests, 'Service'), spec: { selector: {}, ports: [{ targetPort: 'http', prot: 80 }] } } as never]),
    ).toEqual([expect.stringContaining("\"prot\"' does not exist in type 'IServicePort'")]);
  });

  const config = () =>
    loadConfig(parseAllDocuments(find(proxyManifests, 'ConfigMap').data?.['proxy.yaml'] ?? '')[0].toJS() as Record<string, unknown>, {
      PROXY_API_KEY: 'k',
      REDIS_URL: 'redis://:p@redis:6379/0',
    });
  const deployment = find(proxyManifests, 'Deployment');
  const pod = deployment.spec!.template!.spec;
  const container = pod.containers[0];

  it('the ConfigMap carries a config that loads, pooling every model-server replica by its stable name', () => {
    const { backends, server } = config();
    const statefulSet = find(modelManifests, 'StatefulSet');
    const names = Array.from(
      { length: statefulSet.spec!.replicas! },
      (_, i) => `http://${statefulSet.metadata.name}-${i}.${statefulSet.spec!.serviceName}:8080/v1`,
    );
    expect((backends.llama as RemoteBackendSettings).urls).toEqual(names);
    expect((backends.llama as RemoteBackendSettings).health?.path).toBe(
      statefulSet.spec!.template!.spec.containers[0].readinessProbe?.httpGet?.path,
    );
    expect(server.host).toBe('0.0.0.0');
    expect(server.apiKeys).toEqual(['k']);
    expect(container.env?.map(({ name }) => name)).toContain('PROXY_API_KEY');
    expect(container.args).toEqual(['--config', '/etc/dialect-proxy/proxy.yaml']);
  });

  it('the replicas share a redis response store, its URL (and password) from the Secret the Redis reads its password from', () => {
    expect(config().responses.store).toMatchObject({ kind: 'redis', url: 'redis://:p@redis:6379/0' });
    const secretOf = (container: Container, name: string) =>
      (container.env as { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[] | undefined)?.find(
        (variable) => variable.name === name,
      )?.valueFrom?.secretKeyRef;
    expect(secretOf(container, 'REDIS_URL')).toEqual({ name: 'dialect-proxy', key: 'redis-url' });
    const redis = find(redisManifests, 'StatefulSet');
    expect(secretOf(redis.spec!.template!.spec.containers[0], 'REDIS_PASSWORD')).toEqual({ name: 'dialect-proxy', key: 'redis-password' });
    expect(redis.spec!.template!.spec.containers[0].args).toContain('$(REDIS_PASSWORD)');
    expect(find(redisManifests, 'Service').metadata.name).toBe('redis');
  });

  it('several proxy replicas, ready on /healthz at the port the config listens on, no liveness probe to kill a drain', () => {
    expect(deployment.spec!.replicas).toBeGreaterThanOrEqual(2);
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.ports?.find(({ name }) => name === 'http')?.containerPort).toBe(config().server.port);
    expect(container.livenessProbe).toBeUndefined();
    const service = find(proxyManifests, 'Service');
    expect(service.spec!.selector).toEqual(deployment.spec!.template!.metadata.labels);
    expect(service.spec!.ports![0].targetPort).toBe('http');
  });

  it('the termination grace period covers the preStop pause, the drain and a margin', () => {
    const pause = Number(container.lifecycle?.preStop?.exec?.command[1]);
    expect(pause).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThanOrEqual(pause * 1000 + config().server.shutdownGraceMs + 5000);
  });

  it('runs as a non-root user, by number', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
  });
});

describe('Dockerfile', () => {
  const text = readFileSync('deploy/Dockerfile', 'utf8');
  // One line per instruction: comments out, continuations joined.
  const instructions = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^[A-Z]+\s/.test(line));
  const last = (name: string) => instructions.filter((line) => line.startsWith(`${name} `)).at(-1) ?? '';

  it("passes dockerfile-utils' checks", () => {
    expect(lintDockerfile(text).map(({ message, range }) => `line ${range.start.line + 1}: ${message}`)).toEqual([]);
  });

  it('runs as a numeric non-root user, checks its health on /healthz, and stops on SIGTERM', () => {
    expect(last('USER')).toMatch(/^USER [1-9]\d*(:[1-9]\d*)?$/);
    expect(last('HEALTHCHECK')).toContain('/healthz');
    expect(last('STOPSIGNAL')).toBe('STOPSIGNAL SIGTERM');
    expect(last('ENTRYPOINT')).toBe('ENTRYPOINT ["node", "dist/src/cli.js"]');
  });

  it('copies from the build context only what exists and what the ignore file lets through', () => {
    const ignored = readFileSync('deploy/Dockerfile.dockerignore', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    const sources = instructions
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
      .flatMap((line) =>
        line
          .split(/\s+/)
          .slice(1, -1)
          .filter((word) => !word.startsWith('--')),
      );
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      expect([source, existsSync(resolve(source))]).toEqual([source, true]);
      expect([source, ignored.some((allowed) => source === allowed || source.startsWith(`${allowed}/`))]).toEqual([source, true]);
    }
  });

  it('runs a config that loads with PROXY_API_KEY set, and refuses to start open without it', () => {
    const command = /CMD \["--config", "([^"]+)"\]/.exec(last('CMD'))?.[1];
    expect(command).toBe('deploy/docker.yaml');
    const config = loadConfig(command as string, { PROXY_API_KEY: 'k' });
    expect(config.server).toMatchObject({ host: '0.0.0.0', port: 8080, apiKeys: ['k'] });
    expect(config.backends.local).toMatchObject({ kind: 'llama-cpp', model: 'builtin' });
    expect(() => loadConfig(command as string, {})).toThrow('config: server.apiKeys[0]: environment variable PROXY_API_KEY is not set');
  });
});

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
describe('nginx example', () => {
  it('passes nginx -t', () => {
    if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light; .ci/run does)');
    const dir = mkdtempSync(join(tmpdir(), 'dialect-proxy-nginx-'));
    try {
      writeFileSync(
        join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${resolve('deploy/nginx/dialect-proxy.conf')};\n}\n`,
      );
      const output = execFileSync(nginx as string, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output).toBe('');
    } catch (error) {
      throw new Error(`nginx -t failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, { cause: error });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
