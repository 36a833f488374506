import { z } from 'zod';

// Extension pages forbid eval; without this zod probes `new Function` and trips the CSP.
z.config({ jitless: true });
