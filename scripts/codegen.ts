/**
 * Code generation from schemas/entities:
 *   npm run codegen                 write src/generated/{entities,api}.ts
 *   npm run codegen -- --check      exit 1 and list stale generated files (run by `npm test`)
 *   npm run codegen -- new <name> --label <中文名> [--icon <Icon>]
 *                                   scaffold entity + table + form + detail schemas for <name>
 *                                   and print the route entries to paste into schemas/routes.json
 * Option --root <dir> works on another checkout (tests).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemaFiles } from '../src/schema/load-node';
import { buildEntityRegistry } from '../src/shared/entity/registry';
import { emitApi, emitEntities, scaffold, type ScaffoldOptions } from './codegen-emit';
import { ICON_NAMES } from '../src/schema/types';

export const GENERATED = ['src/generated/entities.ts', 'src/generated/api.ts'] as const;

export function generate(root: string): Record<string, string> {
  const reg = buildEntityRegistry(loadSchemaFiles(root).files);
  return { 'src/generated/entities.ts': emitEntities(reg), 'src/generated/api.ts': emitApi(reg) };
}

/** Generated files whose content on disk differs from what the schemas produce. */
export function staleFiles(root: string): string[] {
  const want = generate(root);
  return Object.keys(want).filter((f) => {
    const p = join(root, f);
    return !existsSync(p) || readFileSync(p, 'utf8') !== want[f];
  });
}

export function writeScaffold(root: string, name: string, opts: ScaffoldOptions): { written: string[]; routes: unknown[] } {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error(`实体名须为 kebab-case（如 insured-person），收到：${name}`);
  if (!opts.label?.trim()) throw new Error('请用 --label 给出实体的中文名（页面标题为「<中文名>列表」「新增<中文名>」「<中文名>详情」），例如 --label 服务工单');
  if (opts.icon && !(ICON_NAMES as readonly string[]).includes(opts.icon)) throw new Error(`图标 ${opts.icon} 不可用，可选：${ICON_NAMES.join('、')}`);
  const { files, routes } = scaffold(name, { label: opts.label.trim(), icon: opts.icon });
  const taken = Object.keys(files).filter((f) => existsSync(join(root, f)));
  if (taken.length) throw new Error(`文件已存在，未覆盖：${taken.join('、')}`);
  for (const [f, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), `${JSON.stringify(data, null, 2)}\n`);
  }
  return { written: Object.keys(files), routes };
}

function main(argv: string[]): number {
  const rootAt = argv.indexOf('--root');
  const root = rootAt >= 0 ? resolve(argv[rootAt + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const args = rootAt >= 0 ? argv.filter((_, i) => i !== rootAt && i !== rootAt + 1) : argv;
  if (args[0] === 'new') {
    const option = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
    if (!args[1] || args[1].startsWith('--')) {
      console.error('用法：npm run codegen -- new <entity-name> --label <中文名> [--icon <图标>]');
      return 2;
    }
    try {
      const { written, routes } = writeScaffold(root, args[1], { label: option('--label') ?? '', icon: option('--icon') });
      console.log(`已生成：\n  ${written.join('\n  ')}\n\n1. 把以下路由加入 schemas/routes.json 的 routes 数组（放进菜单分组时，路径需以分组路径开头）：\n${JSON.stringify(routes, null, 2)}`);
      console.log('\n2. 运行 npm run codegen 更新 src/generated/（类型和类型化的 API 客户端）。');
      console.log('3. 重新运行 npm start（或在 npm run dev 下保存即生效）：网关建表并提供 API，菜单中出现新页面。');
    } catch (err) {
      console.error((err as Error).message);
      return 2;
    }
    return 0;
  }
  if (args.includes('--check')) {
    const stale = staleFiles(root);
    if (stale.length) {
      console.error(`生成文件已过期（请运行 npm run codegen）：\n  ${stale.join('\n  ')}`);
      return 1;
    }
    console.log('codegen: generated files are up to date');
    return 0;
  }
  for (const [f, text] of Object.entries(generate(root))) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
    console.log(`wrote ${f}`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
