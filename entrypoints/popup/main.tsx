import '@/entrypoints/shared/zod-setup';
import { createRoot } from 'react-dom/client';
import { PopupApp } from './popup-app';

createRoot(document.getElementById('root')!).render(<PopupApp />);
