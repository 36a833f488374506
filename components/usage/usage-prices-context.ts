import { createContext } from 'react';
import type { ModelPrice } from '@/lib/usage/model-price';

/** The user's price table, so every usage line can estimate a cost; empty until the settings are read. */
export const UsagePricesContext = createContext<readonly ModelPrice[]>([]);
