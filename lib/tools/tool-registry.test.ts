import { createHash } from 'node:crypto';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { declaredTools } from '../agent/declared-tools';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the model sees of each tool, hashed: its JSON schema and its description. */
async function seenByModel(): Promise<Record<string, { schema: string; description: string }>> {
  const seen: Record<string, { schema: string; description: string }> = {};
  for (const [name, tool] of Object.entries(declaredTools())) {
    const schema = await asSchema(tool.inputSchema).jsonSchema;
    seen[name] = { schema: sha256(JSON.stringify(schema)), description: sha256(tool.description ?? '') };
  }
  return seen;
}

/** Recorded before the tools moved into their families; a change here is a change the model sees. */
const PINNED: Record<string, { schema: string; description: string }> = {
  listTargets: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: '8c5b18bb951e73779df3b4b1e9116aac99cf517c3fc5e94d4d828e023b945424',
  },
  openTarget: {
    schema: '15a27b5f7c57528a7cf8df16d7cecdac957f842e6643f1b3b4c4025ff706e2b1',
    description: 'a1f36815a9bda851a4d20159ed379539b2268427f52c093cd85fe8a7c8fc6a9c',
  },
  getParameters: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: 'd5a1999eb0254f7f2ec6a5cbf960669b0c050614bfdecba1c7bc7136d1d4fdce',
  },
  setParameter: {
    schema: '6d5c51e0f49392f5b3e28c918f7c8475bdc18b82499a27dedc0f42427b102997',
    description: '84bea96b5c9360e488ebdcaf15dccf9ecfff733d86f3f78c11e039c359a55be2',
  },
  setParameters: {
    schema: '3db134ec7cbd3dc3b0d8715b0651148dfd31f04f11a3342f40b7d8ff65d26f7b',
    description: '888f141c39c7bb0be889b74da5151f78773881b71c0e6fb937b0f44a0692764b',
  },
  resetTarget: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: '2ad283832767ec294c95cecc7ccb97985b55eafadbf1d1a52c9834603c9f31bb',
  },
  askUser: {
    schema: 'b0bbd2e8029b8ec9c9a2aa4706c156d1c9a915ad1205d8c259581c41a1b7db75',
    description: 'd43ce692bf37b01746b46578cd4beda01f7aff373237603467b7adfe5d74ac9d',
  },
  showArtifact: {
    schema: 'e88f507d6c11a16fd4cea75f47913ab469e58c2f2bb780dfc8a1eada3ac7514b',
    description: '53462e88f1888fa0cd2ccc7618e3db8255143397a3850881ca44cf8bd7d8370a',
  },
  runScript: {
    schema: 'e72712d4537270d82f69ad8e918d339bc3e356a0ac2a95ed0cb30b47ae8ce8be',
    description: '85ba0388b43743ab4379477fc652d55f73936c990649e8f5d4813d6fd06c9da6',
  },
  jobStatus: {
    schema: 'add5356146afbe528edbe3df9d4e76ffed5bffff1248f37b19b409a00a636e2e',
    description: '0933a32813594ee3ffae6ef5fe7868bfc4113ca0ac586075ef14ab3ccd5f5ec6',
  },
  cancelJob: {
    schema: 'abe5d8e2efedf5c84f3ee79fb131f2ebeb9ef93ca765114a5e9a16bbe5f67162',
    description: 'a9d32257e7fbad5b92e64c64d4835e0b5c6fab54310d089129ec8b13855aad0c',
  },
  listJobs: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: 'b5aac6f6386fda54e4b2c7f4fda0a82b61b56ff927c2fdb7f094393c9cab904a',
  },
  createTarget: {
    schema: '857b542b5dd9bc97a73b239675ec03c995b9f3e04cc3eb6c4ea51d2e57b036c4',
    description: '6be44b678e33760c6fe5dfc73a3ff7690f2a8746b1c2fb49702013ee10299c36',
  },
  updateTarget: {
    schema: '7f1b0efba7e82df63ce1da1ba974d0f626de5a682444a8fd32187911a77320af',
    description: 'e75d2ba11d96e6d4b0b51e6a1481129fa6a2d0bebdeeb8db2cf3b69e6ae14143',
  },
  observePage: {
    schema: 'b2e0aaed08ed6d9fe34785f61c225075e0cceb81d3f9257c58af7dfe40076acd',
    description: '3d5a134d2433febc23a3edef03612e77b5ae55c8d1e3011e1358f1917479eebc',
  },
  actOnPage: {
    schema: '91dfa68333633158fbf17315ffc94e576adfcb8b1bae9f83df4c4917252a9d4d',
    description: 'fb56ea84e1f430fda82b98f69922db0ebc52bbd17970fd073c295b36d99420f4',
  },
  uploadFile: {
    schema: 'b04899ebe323e982034861d4320661d22582e0c13f14b7bd2297bdb4008b0213',
    description: 'b27e44504ebc83f811f9b8a6c4ba67535d05e1fcd1766aa04461705ad2c9ba86',
  },
  navigatePage: {
    schema: '709e0ea76ae4d490cb41141380e2e005a743cf7eeaf7b19f5e000598802b0d2f',
    description: '2bd0ebfc85ae5f72f0a2afc3f5365ac8356f87bbaa0e26ff510ac8787f309c4f',
  },
  pageBack: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: 'f9dc7e19fc8e74cb608782c76e9c0f0a447097822c487df45f393ae627a99fb2',
  },
  callPageTool: {
    schema: 'd5be1cb91de75d6ac5b6515a548b29ca1e7a35980b98e52bfaa651b4f1ed2828',
    description: '9c757ac2b2851a1fee2d69412d1fd0e017c1f081c06b99afd986f9d4988e972f',
  },
  listTabs: {
    schema: 'a649977f724ad625a17d237428e9f67e00163c0ba0ebd27f205c20ea9904d44e',
    description: '99e824f3853441a410235012846219e06fa3011fd0d01f511fd5485330f89fa0',
  },
  openTab: {
    schema: 'a329d27f36574dacb2d539e1ffbcbf2f9d5bd03f405660692b7b839b34101d72',
    description: '0517d59b7beb93beb01483e2709076921b44c4a93e68b514868a3fbb62eed603',
  },
  switchTab: {
    schema: '18014f98e9a34799f07ca29f4befb69640da85a13766e4191351f44f37374ad5',
    description: '09fb26222b56d0e9bce6181dc6801521e15f66e2c8049eab7eb010707ed32b6e',
  },
  closeTab: {
    schema: '18014f98e9a34799f07ca29f4befb69640da85a13766e4191351f44f37374ad5',
    description: '9543a9febeac810f5b6159788702d795a178eaa0d43c500a4286d28dab176394',
  },
};

describe('the tools the model sees', () => {
  it('are exactly the pinned ones, with the same schemas and descriptions', async () => {
    expect(await seenByModel()).toEqual(PINNED);
  });

  it('come in the pinned order', () => {
    expect(Object.keys(declaredTools())).toEqual(Object.keys(PINNED));
  });
});
