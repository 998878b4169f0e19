// The settings a production deployment usually needs are named at start when unset (qa6 #4, #2, #6).
import { expect } from 'chai';
import { deploymentWarnings, loadConfig } from '../../src/config.js';

describe('unit: deployment warnings at start', () => {
  it('names DTR_LAUNCH_URL, PUBLIC_BASE_URL and OUTBOUND_DENY when unset, and nothing when they are set', () => {
    const bare = deploymentWarnings(loadConfig({}));
    expect(bare.map((w) => w.split(' ')[0])).to.deep.equal(['DTR_LAUNCH_URL', 'PUBLIC_BASE_URL', 'OUTBOUND_DENY']);
    expect(deploymentWarnings(loadConfig({ DTR_LAUNCH_URL: 'https://dtr.example/launch', PUBLIC_BASE_URL: 'https://prauth.example', OUTBOUND_DENY: 'private' }))).to.deep.equal([]);
  });
});
