import { Module } from '@nestjs/common';
import { ExplorerController } from './explorer.controller.js';

/** GET /explorer: the pricing explorer, a page that calls the API with the visitor's own key. */
@Module({ controllers: [ExplorerController] })
export class ExplorerModule {}
