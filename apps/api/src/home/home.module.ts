import { Module } from '@nestjs/common';
import { HomeController } from './home.controller.js';

/** GET / and /v1: where a visitor finds the documentation. */
@Module({ controllers: [HomeController] })
export class HomeModule {}
